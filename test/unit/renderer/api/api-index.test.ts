// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_STORAGE_KEY } from '../../../../renderer/api/token.js';

beforeEach(() => {
  vi.resetModules();
  sessionStorage.clear();
  history.replaceState(null, '', '/');
  delete window.sandbar;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client selection', () => {
  it('in a browser takes the token from the fragment, keeps it for the tab and clears the address bar', async () => {
    history.replaceState(null, '', '/?x=1#token=tok-abc');
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: { token: 'tok-abc' } })));
    vi.stubGlobal('fetch', fetch);
    const { api } = await import('../../../../renderer/api/index.js');
    expect(sessionStorage.getItem(TOKEN_STORAGE_KEY)).toBe('tok-abc');
    expect(location.hash).toBe('');
    expect(location.search).toBe('?x=1');
    await api.call('endpoint.token', {});
    expect(new Headers((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].headers).get('authorization')).toBe('Bearer tok-abc');
  });

  it('adopts a token from a link opened later in the same tab', async () => {
    sessionStorage.setItem(TOKEN_STORAGE_KEY, 'old');
    const { adoptTokenFromFragment } = await import('../../../../renderer/api/index.js');
    history.replaceState(null, '', '/#token=new');
    expect(adoptTokenFromFragment()).toBe(true);
    expect(sessionStorage.getItem(TOKEN_STORAGE_KEY)).toBe('new');
    expect(location.hash).toBe('');
    history.replaceState(null, '', '/#/limits');
    expect(adoptTokenFromFragment()).toBe(false);
  });

  it('in Electron uses the preload and never touches the network', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    window.sandbar = { methods: { 'endpoint.token': async () => ({ ok: true, value: { token: 'ipc' } }) }, events: {} } as never;
    const { api, connection } = await import('../../../../renderer/api/index.js');
    await expect(api.call('endpoint.token', {})).resolves.toEqual({ token: 'ipc' });
    expect(connection.status).toBe('open');
    expect(fetch).not.toHaveBeenCalled();
  });
});
