// The panel's HTTP client (renderer/api/http-client.ts): calls, error envelopes, token handling and the event stream.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiCallError } from '../../../../renderer/api/errors.js';
import { HttpApi } from '../../../../renderer/api/http-client.js';
import { sessionTokenStore } from '../../../../renderer/api/token.js';
import { fakeServer, frame } from './fake-server.js';

const clients: HttpApi[] = [];

function client(server: ReturnType<typeof fakeServer>, token: string | null = 'tok-1', sleep = vi.fn((_ms: number) => new Promise<void>((resolve) => setTimeout(resolve, 1)))) {
  const tokens = sessionTokenStore(null);
  if (token) tokens.set(token);
  const api = new HttpApi({ fetch: server.fetch as unknown as typeof fetch, tokens, sleep, backoff: { initialMs: 100, maxMs: 1000 }, connectTimeoutMs: 2000 });
  clients.push(api);
  return { api, tokens, sleep };
}

afterEach(() => {
  for (const c of clients.splice(0)) c.stop();
});

describe('HttpApi calls', () => {
  it('POSTs the arguments as JSON with the bearer token and unwraps the envelope', async () => {
    const server = fakeServer({ 'servers.tools': (body) => ({ body: { ok: true, value: [{ name: 'echo', got: body }] } }) });
    const { api } = client(server);
    await expect(api.call('servers.tools', { name: 'github' })).resolves.toEqual([{ name: 'echo', got: { name: 'github' } }]);
    const [url, init] = server.fetch.mock.calls[0]!;
    expect(url).toBe('/api/call/servers.tools');
    expect(init?.method).toBe('POST');
    const headers = server.headersOf(0);
    expect(headers.get('authorization')).toBe('Bearer tok-1');
    expect(headers.get('content-type')).toBe('application/json');
  });

  it('throws ApiCallError with code, message and fields from an error envelope', async () => {
    const server = fakeServer({
      'settings.update': () => ({ status: 400, body: { ok: false, error: { code: 'invalid_config', message: 'Invalid settings', fields: { 'limits.pids': 'must be at least 16' } } } }),
    });
    const { api } = client(server);
    const err = (await api.call('settings.update', { patch: { limits: { pids: 1 } } }).catch((e: unknown) => e)) as ApiCallError;
    expect(err).toBeInstanceOf(ApiCallError);
    expect(err.code).toBe('invalid_config');
    expect(err.message).toBe('Invalid settings');
    expect(err.fields).toEqual({ 'limits.pids': 'must be at least 16' });
  });

  it('turns HTTP 401 into an unauthorized error and status', async () => {
    const server = fakeServer({ 'health.get': () => ({ status: 401, body: { ok: false, error: { code: 'invalid_request', message: 'no' } } }) });
    const { api } = client(server);
    const statuses: string[] = [];
    api.onStatus((s) => statuses.push(s));
    const err = (await api.call('health.get', {}).catch((e: unknown) => e)) as ApiCallError;
    expect(err.code).toBe('unauthorized');
    expect(err.message).toMatch(/npm run serve/);
    expect(api.status).toBe('unauthorized');
    expect(statuses).toEqual(['unauthorized']);
  });

  it('is unauthorized without a token and does not call the server', async () => {
    const server = fakeServer();
    const { api } = client(server, null);
    await expect(api.call('health.get', {})).rejects.toMatchObject({ code: 'unauthorized' });
    expect(server.fetch).not.toHaveBeenCalled();
  });

  it('reports a network failure as code network', async () => {
    const { api } = client({ ...fakeServer(), fetch: vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))) } as never);
    await expect(api.call('health.get', {})).rejects.toMatchObject({ code: 'network' });
  });

  it('switches to a rotated panel token at once, and keeps its own when the client token rotates', async () => {
    const server = fakeServer({
      'endpoint.rotateToken': () => ({ body: { ok: true, value: { token: 'tok-2' } } }),
      'endpoint.info': () => ({ body: { ok: true, value: {} } }),
    });
    const { api, tokens } = client(server);
    await api.call('endpoint.rotateToken', { kind: 'client' });
    expect(tokens.get()).toBe('tok-1');
    await api.call('endpoint.rotateToken', { kind: 'panel' });
    expect(tokens.get()).toBe('tok-2');
    await api.call('endpoint.info', {});
    expect(server.headersOf(2).get('authorization')).toBe('Bearer tok-2');
  });
});

describe('HttpApi events', () => {
  it('opens the stream with the token, reads the connection id and sends it with later calls', async () => {
    const server = fakeServer({ 'endpoint.info': () => ({ body: { ok: true, value: {} } }) });
    const { api } = client(server);
    api.on('live.changed', () => {});
    await vi.waitFor(() => expect(server.streams).toHaveLength(1));
    expect(server.fetch.mock.calls[0]![0]).toBe('/api/events');
    expect(server.headersOf(0).get('authorization')).toBe('Bearer tok-1');
    server.streams[0]!.send(frame('connected', { connectionId: 'conn-9' }));
    await vi.waitFor(() => expect(api.status).toBe('open'));
    await api.call('endpoint.info', {});
    expect(server.headersOf(1).get('x-sandbar-connection')).toBe('conn-9');
  });

  it('makes output.subscribe wait for the connection it binds to', async () => {
    const server = fakeServer({ 'output.subscribe': (_b, headers) => ({ body: { ok: true, value: { conn: headers.get('x-sandbar-connection') } } }) });
    const { api } = client(server);
    const pending = api.call('output.subscribe', { id: 'x' });
    await vi.waitFor(() => expect(server.streams).toHaveLength(1));
    expect(server.fetch).toHaveBeenCalledTimes(1); // the call itself waits
    server.streams[0]!.send(frame('connected', { connectionId: 'c-42' }));
    await expect(pending).resolves.toEqual({ conn: 'c-42' });
  });

  it('delivers events split across chunks to their listeners, parsed', async () => {
    const server = fakeServer();
    const { api } = client(server);
    const got: unknown[] = [];
    api.on('output.chunk', (d) => got.push(d));
    await vi.waitFor(() => expect(server.streams).toHaveLength(1));
    const text = frame('connected', { connectionId: 'c' }) + frame('output.chunk', { id: 'a', stdout: 'hé\n', stderr: '' }, 1) + frame('output.chunk', { id: 'a', stdout: '', stderr: 'oops' }, 2);
    for (let i = 0; i < text.length; i += 7) server.streams[0]!.send(text.slice(i, i + 7));
    await vi.waitFor(() => expect(got).toHaveLength(2));
    expect(got).toEqual([
      { id: 'a', stdout: 'hé\n', stderr: '' },
      { id: 'a', stdout: '', stderr: 'oops' },
    ]);
  });

  it('ignores unknown event names and keeps going after a bad frame', async () => {
    const server = fakeServer();
    const { api } = client(server);
    const got: unknown[] = [];
    api.on('live.changed', (d) => got.push(d));
    await vi.waitFor(() => expect(server.streams).toHaveLength(1));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    server.streams[0]!.send(frame('connected', { connectionId: 'c' }) + frame('not.an.event', {}) + 'event: live.changed\ndata: {broken\n\n' + frame('live.changed', { paused: true }, 1));
    await vi.waitFor(() => expect(got).toEqual([{ paused: true }]));
    warn.mockRestore();
  });

  it('reconnects with backoff after a drop and asks for a resync once open again', async () => {
    const server = fakeServer();
    const { api, sleep } = client(server);
    const resyncs = vi.fn();
    const statuses: string[] = [];
    api.onResync(resyncs);
    api.onStatus((s) => statuses.push(s));
    api.on('live.changed', () => {});
    await vi.waitFor(() => expect(server.streams).toHaveLength(1));
    server.streams[0]!.send(frame('connected', { connectionId: 'c1' }));
    await vi.waitFor(() => expect(api.status).toBe('open'));
    expect(resyncs).not.toHaveBeenCalled();
    server.streams[0]!.close();
    await vi.waitFor(() => expect(server.streams).toHaveLength(2));
    expect(sleep).toHaveBeenCalledWith(100);
    server.streams[1]!.send(frame('connected', { connectionId: 'c2' }));
    await vi.waitFor(() => expect(resyncs).toHaveBeenCalledTimes(1));
    expect(statuses).toEqual(['open', 'reconnecting', 'open']);
  });

  it('doubles the delay after each failed attempt, up to the maximum', async () => {
    const server = fakeServer();
    server.setEventsStatus(503);
    const { api, sleep } = client(server);
    api.on('live.changed', () => {});
    await vi.waitFor(() => expect(sleep.mock.calls.length).toBeGreaterThanOrEqual(6));
    expect(sleep.mock.calls.slice(0, 6).map((c) => c[0])).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(api.status).toBe('connecting');
  });

  it('asks for a resync when the sequence skips a message', async () => {
    const server = fakeServer();
    const { api } = client(server);
    const resyncs = vi.fn();
    api.onResync(resyncs);
    api.on('live.changed', () => {});
    await vi.waitFor(() => expect(server.streams).toHaveLength(1));
    server.streams[0]!.send(frame('connected', { connectionId: 'c' }) + frame('live.changed', {}, 1) + frame('live.changed', {}, 2));
    await new Promise((r) => setTimeout(r, 20));
    expect(resyncs).not.toHaveBeenCalled();
    server.streams[0]!.send(frame('live.changed', {}, 5));
    await vi.waitFor(() => expect(resyncs).toHaveBeenCalledTimes(1));
  });

  it('stops on 401 and connects again with a new token', async () => {
    const server = fakeServer();
    server.setEventsStatus(401);
    const { api } = client(server);
    api.on('live.changed', () => {});
    await vi.waitFor(() => expect(api.status).toBe('unauthorized'));
    await new Promise((r) => setTimeout(r, 20));
    expect(server.fetch).toHaveBeenCalledTimes(1);
    server.setEventsStatus(200);
    api.setToken('tok-new');
    await vi.waitFor(() => expect(server.streams).toHaveLength(1));
    expect(server.headersOf(1).get('authorization')).toBe('Bearer tok-new');
    server.streams[0]!.send(frame('connected', { connectionId: 'c' }));
    await vi.waitFor(() => expect(api.status).toBe('open'));
  });
});
