// The preload exposes exactly `window.sandbar` = { methods, events } from the contract, and nothing that
// would hand the page raw IPC (ipcRenderer, on/send/invoke of any channel).
import { beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { EVENT_NAMES, ipcChannel, METHOD_NAMES, type PreloadApi } from '../../../shared/contract.js';
import { buildPreloadApi } from '../../../electron/shell/preload-api.js';

const electron = vi.hoisted(() => {
  const exposed = new Map<string, unknown>();
  const rendererListeners = new Map<string, ((event: unknown, ...args: unknown[]) => void)[]>();
  return {
    exposed,
    rendererListeners,
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: vi.fn(async (channel: string, args: unknown) => ({ ok: true, value: { channel, args } })),
      on: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
        rendererListeners.set(channel, [...(rendererListeners.get(channel) ?? []), listener]);
      }),
      send: vi.fn(),
      removeListener: vi.fn(),
    },
  };
});

vi.mock('electron', () => ({ contextBridge: electron.contextBridge, ipcRenderer: electron.ipcRenderer }));

/** What main sends on the event channel. */
function push(message: unknown): void {
  for (const listener of electron.rendererListeners.get(ipcChannel.event) ?? []) listener({ sender: null }, message);
}

let api: PreloadApi;

beforeAll(async () => {
  await import('../../../electron/preload.js');
  api = electron.exposed.get('sandbar') as PreloadApi;
});

describe('electron/preload.ts', () => {
  it('exposes one key, exactly `sandbar`', () => {
    expect([...electron.exposed.keys()]).toEqual(['sandbar']);
  });

  it('exposes methods and events and nothing else at the top level', () => {
    expect(Object.keys(api).sort()).toEqual(['events', 'methods']);
    for (const forbidden of ['ipcRenderer', 'on', 'send', 'invoke', 'once', 'removeListener', 'sendSync']) {
      expect(api).not.toHaveProperty(forbidden);
    }
    expect(Object.values(api).every((v) => typeof v === 'object' && v !== null)).toBe(true);
  });

  it('has exactly one function per contract method', () => {
    expect(Object.keys(api.methods).sort()).toEqual([...METHOD_NAMES].sort());
    expect(Object.values(api.methods).every((f) => typeof f === 'function')).toBe(true);
  });

  it('has exactly one subscriber per contract event', () => {
    expect(Object.keys(api.events).sort()).toEqual([...EVENT_NAMES].sort());
    expect(Object.values(api.events).every((f) => typeof f === 'function')).toBe(true);
  });

  it('registers ONE ipcRenderer listener, on the event channel only', () => {
    expect(electron.ipcRenderer.on).toHaveBeenCalledTimes(1);
    expect(electron.ipcRenderer.on.mock.calls[0]?.[0]).toBe(ipcChannel.event);
  });

  it('a method invokes its derived channel with the arguments and returns the envelope', async () => {
    const answer = await api.methods['executions.get']({ id: 'run-1' });
    expect(electron.ipcRenderer.invoke).toHaveBeenLastCalledWith(ipcChannel.call('executions.get'), { id: 'run-1' });
    expect(answer).toEqual({ ok: true, value: { channel: 'sandbar:call:executions.get', args: { id: 'run-1' } } });
  });

  it('a listener receives only its event, and nothing after its disposer ran', () => {
    const seen: unknown[] = [];
    const dispose = api.events['live.changed']((data) => seen.push(data));
    push({ event: 'live.changed', seq: 1, data: { running: 1 } });
    push({ event: 'health.changed', seq: 2, data: { ok: false } });
    push({ event: 'not.an.event', seq: 3, data: {} });
    push('garbage');
    dispose();
    push({ event: 'live.changed', seq: 4, data: { running: 2 } });
    expect(seen).toEqual([{ running: 1 }]);
    expect(electron.ipcRenderer.removeListener).not.toHaveBeenCalled();
  });

  it('the object satisfies PreloadApi (type test)', () => {
    expectTypeOf(buildPreloadApi).returns.toEqualTypeOf<PreloadApi>();
    expectTypeOf<PreloadApi['methods']['live.setPaused']>().parameters.toEqualTypeOf<[{ paused: boolean }]>();
    expectTypeOf<ReturnType<PreloadApi['events']['live.changed']>>().toEqualTypeOf<() => void>();
  });
});

describe('buildPreloadApi', () => {
  function build(invoke: (channel: string, args: unknown) => Promise<unknown> = async () => ({ ok: true, value: null })) {
    let deliver: (message: unknown) => void = () => {};
    const reported: unknown[] = [];
    const built = buildPreloadApi({ invoke, onEvent: (fn) => (deliver = fn), report: (err) => reported.push(err) });
    return { api: built, deliver: (m: unknown) => deliver(m), reported };
  }

  it('answers with an envelope, never a rejection, when invoke fails (no handler yet)', async () => {
    const { api: built } = build(() => Promise.reject(new Error("No handler registered for 'sandbar:call:live.snapshot'")));
    await expect(built.methods['live.snapshot']({})).resolves.toEqual({
      ok: false,
      error: { code: 'internal', message: "No handler registered for 'sandbar:call:live.snapshot'" },
    });
  });

  it('treats an answer that is not an envelope as an error', async () => {
    const { api: built } = build(async () => 'surprise');
    await expect(built.methods['live.snapshot']({})).resolves.toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('two subscriptions with the same function are disposed independently', () => {
    const { api: built, deliver } = build();
    const seen: unknown[] = [];
    const listener = (d: unknown) => seen.push(d);
    const first = built.events['output.chunk'](listener);
    built.events['output.chunk'](listener);
    first();
    deliver({ event: 'output.chunk', seq: 1, data: 'x' });
    expect(seen).toEqual(['x']);
  });

  it('a throwing listener is reported and does not stop the others', () => {
    const { api: built, deliver, reported } = build();
    const seen: unknown[] = [];
    built.events['execution.finished'](() => {
      throw new Error('listener bug');
    });
    built.events['execution.finished']((d) => seen.push(d));
    deliver({ event: 'execution.finished', seq: 1, data: 1 });
    expect(seen).toEqual([1]);
    expect(reported).toHaveLength(1);
  });

  it('is frozen', () => {
    const { api: built } = build();
    expect(Object.isFrozen(built)).toBe(true);
    expect(Object.isFrozen(built.methods)).toBe(true);
    expect(Object.isFrozen(built.events)).toBe(true);
  });
});
