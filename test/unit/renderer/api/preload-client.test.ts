// The panel's client over Electron's preload (renderer/api/preload-client.ts): envelopes unwrapped, errors typed, subscriptions.
import { describe, expect, it, vi } from 'vitest';
import type { PreloadApi } from '../../../../shared/contract.js';
import { ApiCallError } from '../../../../renderer/api/errors.js';
import { wrapPreload } from '../../../../renderer/api/preload-client.js';

function fakePreload(methods: Partial<Record<string, (args: unknown) => Promise<unknown>>>, events: Partial<Record<string, (l: (d: unknown) => void) => () => void>> = {}) {
  return { methods, events } as unknown as PreloadApi;
}

describe('wrapPreload', () => {
  it('unwraps an ok envelope into its value', async () => {
    const getter = vi.fn(async () => ({ ok: true, value: { token: 't' } }));
    const api = wrapPreload(fakePreload({ 'endpoint.token': getter }));
    await expect(api.call('endpoint.token', {})).resolves.toEqual({ token: 't' });
    expect(getter).toHaveBeenCalledWith({});
  });

  it('throws an ApiCallError with code, message and fields for an error envelope', async () => {
    const api = wrapPreload(
      fakePreload({ 'settings.update': async () => ({ ok: false, error: { code: 'invalid_config', message: 'bad', fields: { 'limits.memory': 'must be a size' } } }) }),
    );
    const err = await api.call('settings.update', { patch: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiCallError);
    expect(err).toMatchObject({ code: 'invalid_config', message: 'bad', fields: { 'limits.memory': 'must be a size' } });
  });

  it('subscribes through the preload and returns its disposer', () => {
    const off = vi.fn();
    const subscribe = vi.fn((_l: (d: unknown) => void) => off);
    const api = wrapPreload(fakePreload({}, { 'live.changed': subscribe }));
    const listener = vi.fn();
    const dispose = api.on('live.changed', listener);
    subscribe.mock.calls[0]![0]({ paused: true });
    expect(listener).toHaveBeenCalledWith({ paused: true });
    dispose();
    expect(off).toHaveBeenCalled();
  });
});
