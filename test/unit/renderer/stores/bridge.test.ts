// The bridge between the API's events and the panel's stores (renderer/stores/bridge.ts), over a fake API.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../shared/settings.js';
import { startBridge, type Bridge } from '../../../../renderer/stores/bridge.js';
import { useConnectionStore } from '../../../../renderer/stores/connection-store.js';
import { useEndpointStore } from '../../../../renderer/stores/endpoint-store.js';
import { useHealthStore } from '../../../../renderer/stores/health-store.js';
import { useHistoryStore } from '../../../../renderer/stores/history-store.js';
import { useLiveStore } from '../../../../renderer/stores/live-store.js';
import { readOutput, setFrameScheduler } from '../../../../renderer/stores/output-store.js';
import { useServersStore } from '../../../../renderer/stores/servers-store.js';
import { useSessionsStore } from '../../../../renderer/stores/sessions-store.js';
import { useSettingsStore } from '../../../../renderer/stores/settings-store.js';
import { FakeApi, FakeConnection } from '../fake-api.js';
import { finished, running, session, snapshot, summary } from './fixtures.js';
import { resetStores } from './reset.js';

// The History store reads the panel's api module; these tests drive the bridge with their own fake.
vi.mock('../../../../renderer/api/index.js', () => ({ api: {} }));

const view = { settings: DEFAULT_SETTINGS, defaults: DEFAULT_SETTINGS, locked: [], file: '/s.json' };
const endpoint = { url: 'http://127.0.0.1:7337/mcp', port: 7337, listening: true, error: null, tokenFile: '/t', panelTokenFile: '/p', sessions: 0 };

function fakeApi(): FakeApi {
  return new FakeApi()
    .handle('live.snapshot', () => snapshot())
    .handle('settings.get', () => view)
    .handle('health.get', () => null)
    .handle('servers.list', () => [])
    .handle('endpoint.info', () => endpoint)
    .handle('approvals.list', () => [])
    .handle('sessions.list', () => [])
    .handle('output.subscribe', ({ id }) => ({ id, stdout: 'so far\n', stderr: '', clipped: false }))
    .handle('output.unsubscribe', () => ({ ok: true }));
}

let bridge: Bridge | null = null;
const start = (api: FakeApi, connection?: FakeConnection) => (bridge = startBridge(api, { connection, resyncDelayMs: 5 }));

beforeEach(() => {
  resetStores();
  setFrameScheduler((flush) => flush());
});

afterEach(() => {
  bridge?.stop();
  bridge = null;
  setFrameScheduler(null);
});

describe('bridge', () => {
  it('loads every snapshot at start', async () => {
    const api = fakeApi().handle('live.snapshot', () => snapshot({ running: [running('r1')] }));
    await start(api).refresh();
    expect(useLiveStore.getState().running.map((r) => r.id)).toEqual(['r1']);
    expect(useSettingsStore.getState().view).toEqual(view);
    expect(useHealthStore.getState().loaded).toBe(true);
    expect(useServersStore.getState().servers).toEqual([]);
    expect(useEndpointStore.getState().info).toEqual(endpoint);
  });

  it('loads the sessions at start, takes every sessions.changed, and loads them again after a reconnect', async () => {
    let live = [session('aa')];
    const api = fakeApi().handle('sessions.list', () => live);
    const connection = new FakeConnection();
    await start(api, connection).refresh();
    expect(useSessionsStore.getState().sessions.map((s) => s.id)).toEqual([session('aa').id]);
    api.emit('sessions.changed', { sessions: [session('aa', { calls: 2 }), session('bb')] });
    expect(useSessionsStore.getState().sessions.map((s) => [s.id.slice(0, 2), s.calls])).toEqual([
      ['aa', 2],
      ['bb', 1],
    ]);
    // Events missed while the connection was down: the snapshot after the resync is the truth.
    live = [];
    connection.resync();
    await vi.waitFor(() => expect(useSessionsStore.getState().sessions).toEqual([]));
    expect(api.callsOf('sessions.list').length).toBeGreaterThanOrEqual(2);
  });

  it('feeds execution events into the live store', async () => {
    const api = fakeApi();
    await start(api).refresh();
    api.emit('execution.queued', { type: 'queued', execution: summary('a'), position: 1 });
    api.emit('execution.started', { type: 'started', id: 'a', at: 10, containerName: 'c', warm: true });
    api.emit('execution.stats', { samples: [{ id: 'a', memoryBytes: 1234 }] });
    expect(useLiveStore.getState().running[0]).toMatchObject({ id: 'a', memoryBytes: 1234 });
    api.emit('execution.finished', { result: finished('a', { exitReason: 'memory', exitCode: 137 }) });
    expect(useLiveStore.getState().running).toEqual([]);
    expect(useLiveStore.getState().recent[0]).toMatchObject({ id: 'a', exitReason: 'memory' });
  });

  it('fetches a fresh snapshot once after missed events (debounced)', async () => {
    const api = fakeApi();
    await start(api).refresh();
    const before = api.callsOf('live.snapshot').length;
    api.emit('execution.started', { type: 'started', id: 'never-queued', at: 1, containerName: 'c', warm: false });
    api.emit('live.changed', { paused: false, pool: { size: 2, ready: 2, starting: 0, lastError: null, refilling: false }, running: 3, queued: 0 });
    await vi.waitFor(() => expect(api.callsOf('live.snapshot').length).toBe(before + 1));
    await new Promise((r) => setTimeout(r, 20));
    expect(api.callsOf('live.snapshot').length).toBe(before + 1);
  });

  it('does not refetch when live.changed agrees with what it has', async () => {
    const api = fakeApi();
    await start(api).refresh();
    const before = api.callsOf('live.snapshot').length;
    api.emit('live.changed', { paused: true, pool: { size: 2, ready: 1, starting: 1, lastError: null, refilling: false }, running: 0, queued: 0 });
    await new Promise((r) => setTimeout(r, 20));
    expect(api.callsOf('live.snapshot').length).toBe(before);
    expect(useLiveStore.getState().paused).toBe(true);
  });

  it('subscribes output once per execution however many watch it, and unsubscribes after the last', async () => {
    const api = fakeApi();
    const b = start(api);
    await b.refresh();
    const off1 = b.watchOutput('a');
    const off2 = b.watchOutput('a');
    await vi.waitFor(() => expect(readOutput('a').present).toBe(true));
    expect(api.callsOf('output.subscribe')).toEqual([{ id: 'a' }]);
    api.emit('output.chunk', { id: 'a', stdout: 'more\n', stderr: 'warn\n' });
    expect(readOutput('a').segments).toEqual([
      { stream: 'stdout', text: 'so far\nmore\n' },
      { stream: 'stderr', text: 'warn\n' },
    ]);
    off1();
    off1(); // a second call of the same disposer changes nothing
    expect(api.callsOf('output.unsubscribe')).toEqual([]);
    off2();
    expect(api.callsOf('output.unsubscribe')).toEqual([{ id: 'a' }]);
  });

  it('keeps chunks that arrive before the subscription answers, after its buffer', async () => {
    let answer!: (v: { id: string; stdout: string; stderr: string; clipped: boolean }) => void;
    const api = fakeApi().handle('output.subscribe', () => new Promise((resolve) => (answer = resolve)));
    const b = start(api);
    await b.refresh();
    b.watchOutput('a');
    api.emit('output.chunk', { id: 'a', stdout: 'late\n', stderr: '' });
    answer({ id: 'a', stdout: 'early\n', stderr: '', clipped: false });
    await vi.waitFor(() => expect(readOutput('a').segments[0]?.text).toBe('early\nlate\n'));
  });

  it('reports the connection state and, on resync, refetches and re-subscribes watched outputs', async () => {
    const api = fakeApi();
    const connection = new FakeConnection();
    const b = start(api, connection);
    await b.refresh();
    expect(useConnectionStore.getState().status).toBe('connecting');
    b.watchOutput('a');
    await vi.waitFor(() => expect(api.callsOf('output.subscribe')).toHaveLength(1));
    connection.set('reconnecting');
    expect(useConnectionStore.getState().status).toBe('reconnecting');
    const snapshots = api.callsOf('live.snapshot').length;
    connection.set('open');
    connection.resync();
    await vi.waitFor(() => expect(api.callsOf('output.subscribe')).toHaveLength(2));
    expect(api.callsOf('live.snapshot').length).toBe(snapshots + 1);
    expect(useConnectionStore.getState().status).toBe('open');
  });

  it('refreshes when the first connection opens (events before it were not seen)', async () => {
    const api = fakeApi();
    const connection = new FakeConnection();
    await start(api, connection).refresh();
    const before = api.callsOf('health.get').length;
    connection.set('open');
    await vi.waitFor(() => expect(api.callsOf('health.get').length).toBe(before + 1));
  });

  it('fetches settings it did not have after a change, and leaves the pool to the server', async () => {
    const api = fakeApi().handle('settings.get', () => view);
    const b = start(api);
    await b.refresh();
    useLiveStore.getState().snapshotLoaded(snapshot());
    useSettingsStore.getState().reset();
    const gets = api.callsOf('settings.get').length;
    api.emit('settings.changed', { settings: { ...DEFAULT_SETTINGS, limits: { ...DEFAULT_SETTINGS.limits, memory: '1g' } }, changed: ['limits.memory'] });
    expect(useLiveStore.getState().pool.refilling).toBe(false);
    await vi.waitFor(() => expect(api.callsOf('settings.get').length).toBe(gets + 1));
  });

  it('is also where live runs reach the History store (queued, started, tool calls, finished)', async () => {
    const api = fakeApi();
    await start(api).refresh();
    const history = () => useHistoryStore.getState();
    history().reset();
    // As when the History view has loaded its first page.
    useHistoryStore.setState({ phase: 'ready' });
    api.emit('execution.queued', { type: 'queued', position: 0, execution: { id: 'h1', code: 'print(1)', servers: [], timeoutSec: 30, queuedAt: 1000 } });
    expect(history().rows.map((r) => [r.id, r.status])).toEqual([['h1', 'queued']]);
    api.emit('execution.started', { type: 'started', id: 'h1', at: 1005, containerName: 'c', warm: true });
    expect(history().rows[0]!.status).toBe('running');
    api.emit('execution.toolCall', { call: { executionId: 'h1', server: 's', tool: 't', startedAt: 0, durationMs: 1, bytesIn: 1, bytesOut: 1, isError: false } });
    api.emit('execution.finished', { result: finished('h1') });
    expect(history().rows[0]).toMatchObject({ id: 'h1', status: 'success', toolCallCount: 1 });
  });

  it('routes health, server, image and endpoint events to their stores', async () => {
    const api = fakeApi();
    await start(api).refresh();
    api.emit('health.changed', { ok: false } as never);
    api.emit('server.state', { servers: [{ name: 'gh' } as never] });
    api.emit('image.pullProgress', { image: 'i', phase: 'pulling', line: 'l', fraction: 0.5, error: null });
    api.emit('endpoint.changed', { ...endpoint, listening: false });
    expect(useHealthStore.getState().report).toEqual({ ok: false });
    expect(useServersStore.getState().servers).toEqual([{ name: 'gh' }]);
    expect(useHealthStore.getState().pull?.fraction).toBe(0.5);
    expect(useEndpointStore.getState().info?.listening).toBe(false);
  });

  it('lets go of every subscription when stopped', async () => {
    const api = fakeApi();
    const b = start(api);
    await b.refresh();
    expect(api.listenerCount()).toBeGreaterThan(0);
    b.stop();
    expect(api.listenerCount()).toBe(0);
  });

  it('keeps going when a snapshot call fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const api = fakeApi().handle('health.get', () => Promise.reject(new Error('down')));
    await start(api).refresh();
    expect(useLiveStore.getState().loaded).toBe(true);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
