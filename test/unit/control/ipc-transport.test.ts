// The IPC transport: every contract method has a handler, untrusted senders never reach the router, and a
// window's event connection lives exactly as long as its webContents.
import { describe, expect, it } from 'vitest';
import { ipcChannel, METHOD_NAMES, type EventMessage } from '../../../shared/contract.js';
import { REFUSED_MESSAGE, registerIpcTransport, type WebContentsLike } from '../../../electron/control/ipc-transport.js';
import { isTrustedSender } from '../../../electron/shell/sender-check.js';
import { FakeRouter } from '../shell/fake-router.js';

interface FakeFrame {
  url: string;
  parent: FakeFrame | null;
}

interface FakeEvent {
  sender: { id: number; mainFrame: FakeFrame };
  senderFrame: FakeFrame | null;
}

class FakeIpcMain {
  readonly handlers = new Map<string, (event: FakeEvent, ...args: unknown[]) => Promise<unknown>>();
  handle(channel: string, listener: (event: FakeEvent, ...args: unknown[]) => Promise<unknown>): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  invoke(channel: string, event: FakeEvent, args: unknown): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, args);
  }
}

class FakeWebContents implements WebContentsLike {
  readonly sent: { channel: string; message: unknown }[] = [];
  private destroyedListeners: (() => void)[] = [];
  destroyed = false;
  constructor(readonly id: number) {}
  send(channel: string, message: unknown): void {
    this.sent.push({ channel, message });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  once(_event: 'destroyed', listener: () => void): this {
    this.destroyedListeners.push(listener);
    return this;
  }
  destroy(): void {
    this.destroyed = true;
    for (const l of this.destroyedListeners.splice(0)) l();
  }
}

const mainFrameAt = (url: string): FakeFrame => ({ url, parent: null });

function eventFrom(frame: FakeFrame | null, options: { id?: number; mainFrame?: FakeFrame } = {}): FakeEvent {
  const mainFrame = options.mainFrame ?? (frame && frame.parent === null ? frame : mainFrameAt('app://sandbar/index.html'));
  return { sender: { id: options.id ?? 1, mainFrame }, senderFrame: frame };
}

function setup() {
  const ipcMain = new FakeIpcMain();
  const router = new FakeRouter({ 'live.setPaused': (args) => ({ ok: true, value: args }) });
  const refused: string[] = [];
  const transport = registerIpcTransport({ ipcMain, router, isTrusted: isTrustedSender, onRefused: (method) => refused.push(method) });
  return { ipcMain, router, transport, refused };
}

const PAUSE = ipcChannel.call('live.setPaused');

describe('registerIpcTransport', () => {
  it('registers exactly one handler per contract method, on the derived channel', () => {
    const { ipcMain } = setup();
    expect([...ipcMain.handlers.keys()].sort()).toEqual(METHOD_NAMES.map((m) => ipcChannel.call(m)).sort());
    expect(ipcMain.handlers.size).toBe(METHOD_NAMES.length);
  });

  it('passes a trusted call to the router and returns its envelope', async () => {
    const { ipcMain, router } = setup();
    const answer = await ipcMain.invoke(PAUSE, eventFrom(mainFrameAt('app://sandbar/index.html')), { paused: true });
    expect(answer).toEqual({ ok: true, value: { paused: true } });
    expect(router.calls).toEqual([{ method: 'live.setPaused', args: { paused: true }, connectionId: undefined, transport: 'ipc' }]);
  });

  it.each([
    ['another https origin', 'https://evil.example/'],
    ['a file: page', 'file:///home/user/panel/index.html'],
    ['another app host', 'app://other/index.html'],
    ['the app host on another port', 'app://sandbar:8080/index.html'],
    ['credentials in the URL', 'app://user@sandbar/index.html'],
    ['a blank page', 'about:blank'],
    ['an empty URL', ''],
    ['a data: URL', 'data:text/html,<script>1</script>'],
  ])('refuses %s and never calls the router', async (_name, url) => {
    const { ipcMain, router, refused } = setup();
    const answer = await ipcMain.invoke(PAUSE, eventFrom(mainFrameAt(url)), { paused: true });
    expect(answer).toEqual({ ok: false, error: { code: 'invalid_request', message: REFUSED_MESSAGE } });
    expect(answer).toMatchObject({ error: { message: expect.stringMatching(/^Refused: /) } });
    expect(router.calls).toEqual([]);
    expect(refused).toEqual(['live.setPaused']);
  });

  it('refuses a subframe, even one served from the app origin', async () => {
    const { ipcMain, router } = setup();
    const top = mainFrameAt('app://sandbar/index.html');
    const child: FakeFrame = { url: 'app://sandbar/frame.html', parent: top };
    const answer = await ipcMain.invoke(PAUSE, eventFrom(child, { mainFrame: top }), { paused: true });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(router.calls).toEqual([]);
  });

  it('refuses a top-level frame that is not the sender\'s main frame', async () => {
    const { ipcMain, router } = setup();
    const stranger = mainFrameAt('app://sandbar/index.html');
    const answer = await ipcMain.invoke(PAUSE, eventFrom(stranger, { mainFrame: mainFrameAt('app://sandbar/index.html') }), {});
    expect(answer).toMatchObject({ ok: false });
    expect(router.calls).toEqual([]);
  });

  it('refuses a call whose frame is gone (null senderFrame)', async () => {
    const { ipcMain, router } = setup();
    const answer = await ipcMain.invoke(PAUSE, eventFrom(null), { paused: false });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(router.calls).toEqual([]);
  });

  it('refuses when the sender check throws', async () => {
    const ipcMain = new FakeIpcMain();
    const router = new FakeRouter();
    registerIpcTransport({ ipcMain, router, isTrusted: () => { throw new Error('boom'); } });
    await expect(ipcMain.invoke(PAUSE, eventFrom(mainFrameAt('app://sandbar/')), {})).resolves.toMatchObject({ ok: false });
    expect(router.calls).toEqual([]);
  });

  it('turns a router that throws into an internal-error envelope', async () => {
    const ipcMain = new FakeIpcMain();
    const router = new FakeRouter();
    router.call = () => Promise.reject(new Error('kaput'));
    registerIpcTransport({ ipcMain, router, isTrusted: () => true });
    await expect(ipcMain.invoke(PAUSE, eventFrom(mainFrameAt('app://sandbar/')), {})).resolves.toEqual({
      ok: false,
      error: { code: 'internal', message: 'kaput' },
    });
  });

  it('streams events to an attached window on the event channel and tags its calls with the connection id', async () => {
    const { ipcMain, router, transport } = setup();
    const contents = new FakeWebContents(7);
    const attachment = transport.attachWindow(contents);
    router.emit('live.changed', { paused: false, running: 1, queued: 0, pool: { size: 2, ready: 1, starting: 0, lastError: null, refilling: false } });
    expect(contents.sent).toHaveLength(1);
    expect(contents.sent[0]?.channel).toBe(ipcChannel.event);
    expect((contents.sent[0]?.message as EventMessage).event).toBe('live.changed');

    await ipcMain.invoke(PAUSE, eventFrom(mainFrameAt('app://sandbar/index.html'), { id: 7 }), { paused: true });
    expect(router.calls[0]?.connectionId).toBe(attachment.connectionId);
    expect(attachment.connectionId).not.toBe('');
  });

  it('closes the window\'s connection when its webContents is destroyed', async () => {
    const { ipcMain, router, transport } = setup();
    const contents = new FakeWebContents(3);
    const attachment = transport.attachWindow(contents);
    expect(router.openConnections()).toEqual([attachment.connectionId]);
    contents.destroy();
    expect(router.openConnections()).toEqual([]);
    router.emit('health.changed', { ok: true } as never);
    expect(contents.sent).toEqual([]);
    // Later calls from that id carry no connection.
    await ipcMain.invoke(PAUSE, eventFrom(mainFrameAt('app://sandbar/index.html'), { id: 3 }), { paused: true });
    expect(router.calls[0]?.connectionId).toBeUndefined();
  });

  it('starts a fresh connection on reset (page reload) and closes the old one', () => {
    const { router, transport } = setup();
    const attachment = transport.attachWindow(new FakeWebContents(4));
    const first = attachment.connectionId;
    attachment.reset();
    expect(attachment.connectionId).not.toBe(first);
    expect(router.openConnections()).toEqual([attachment.connectionId]);
  });

  it('dispose removes every handler and closes every connection', () => {
    const { ipcMain, router, transport } = setup();
    transport.attachWindow(new FakeWebContents(1));
    transport.attachWindow(new FakeWebContents(2));
    transport.dispose();
    expect(ipcMain.handlers.size).toBe(0);
    expect(router.openConnections()).toEqual([]);
  });
});
