// electron/security.ts wires the pure policy into Electron: checked with fake sessions and webContents.
import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../electron/shell/window-options.js';

const shell = vi.hoisted(() => ({ openExternal: vi.fn(async (_url: string) => {}) }));
vi.mock('electron', () => ({ shell }));

const { applySecurityGuards, hardenContents, hardenSession } = await import('../../../electron/security.js');

type Handler = (...args: never[]) => unknown;

function fakeSession() {
  const handlers: Record<string, Handler> = {};
  return {
    handlers,
    setPermissionRequestHandler: (h: Handler) => (handlers.request = h),
    setPermissionCheckHandler: (h: Handler) => (handlers.check = h),
    setDevicePermissionHandler: (h: Handler) => (handlers.device = h),
    webRequest: { onHeadersReceived: (h: Handler) => (handlers.headers = h) },
  };
}

class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(h: (details: { url: string }) => { action: string }): void {
    this.openHandler = h;
  }
  /** Emits a navigation-like event and says whether it was prevented. */
  navigate(event: string, url: string, isMainFrame = true): boolean {
    let prevented = false;
    this.emit(event, { url, isMainFrame, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

const warnings: string[] = [];
const warn = (m: string) => warnings.push(m);

beforeEach(() => {
  warnings.length = 0;
  shell.openExternal.mockClear();
});

describe('hardenSession', () => {
  it('refuses permission requests and checks, except clipboard writes from the app', () => {
    const ses = fakeSession();
    hardenSession(ses as never);
    const answers: boolean[] = [];
    const request = ses.handlers.request as unknown as (c: unknown, p: string, cb: (v: boolean) => void, d: { requestingUrl: string }) => void;
    request(null, 'media', (v) => answers.push(v), { requestingUrl: 'app://sandbar/' });
    request(null, 'notifications', (v) => answers.push(v), { requestingUrl: 'app://sandbar/' });
    request(null, 'clipboard-sanitized-write', (v) => answers.push(v), { requestingUrl: 'https://evil.example/' });
    expect(answers).toEqual([false, false, false]);
    const check = ses.handlers.check as unknown as (c: unknown, p: string, origin: string) => boolean;
    expect(check(null, 'geolocation', 'app://sandbar')).toBe(false);
    expect(check(null, 'clipboard-sanitized-write', 'app://sandbar')).toBe(true);
    expect((ses.handlers.device as unknown as () => boolean)()).toBe(false);
  });

  it('replaces any CSP header with the app\'s on page responses', () => {
    const ses = fakeSession();
    hardenSession(ses as never);
    const headers = ses.handlers.headers as unknown as (d: unknown, cb: (r: unknown) => void) => void;
    let result: unknown;
    headers({ url: 'https://example.com/', responseHeaders: { 'content-security-policy': ['*'], 'X-Other': ['1'] } }, (r) => (result = r));
    expect(result).toEqual({ responseHeaders: { 'X-Other': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    headers({ url: 'devtools://devtools/x', responseHeaders: {} }, (r) => (result = r));
    expect(result).toEqual({});
  });
});

describe('hardenContents', () => {
  it('prevents navigation and redirects off the app origin', () => {
    const contents = new FakeContents();
    hardenContents(contents as never, warn);
    expect(contents.navigate('will-navigate', 'app://sandbar/index.html')).toBe(false);
    expect(contents.navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.navigate('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(contents.navigate('will-frame-navigate', 'https://evil.example/', false)).toBe(true);
    expect(contents.navigate('will-frame-navigate', 'app://sandbar/inner.html', false)).toBe(false);
    expect(shell.openExternal).not.toHaveBeenCalled();
    expect(warnings).toHaveLength(3);
  });

  it('sends an allowed docs link to the browser instead of navigating', () => {
    const contents = new FakeContents();
    hardenContents(contents as never, warn);
    expect(contents.navigate('will-navigate', 'https://podman.io/docs')).toBe(true);
    expect(shell.openExternal).toHaveBeenCalledWith('https://podman.io/docs');
  });

  it('denies every new window; docs links open externally', () => {
    const contents = new FakeContents();
    hardenContents(contents as never, warn);
    expect(contents.openHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'app://sandbar/index.html' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).not.toHaveBeenCalled();
    expect(contents.openHandler?.({ url: 'https://github.com/containers/podman' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledWith('https://github.com/containers/podman');
  });

  it('prevents <webview> attachment', () => {
    const contents = new FakeContents();
    hardenContents(contents as never, warn);
    let prevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) }, {}, { src: 'https://x' });
    expect(prevented).toBe(true);
  });
});

describe('applySecurityGuards', () => {
  it('hardens every webContents created afterwards', () => {
    const app = new EventEmitter();
    applySecurityGuards(app as never, fakeSession() as never, warn);
    const contents = new FakeContents();
    app.emit('web-contents-created', {}, contents);
    expect(contents.openHandler).not.toBeNull();
    expect(contents.navigate('will-navigate', 'https://evil.example/')).toBe(true);
  });
});
