// The panel's HTTP API on the real listener: the bearer token, the Origin and Host checks, no CORS, and
// the panel's own files served with the CSP. Nothing here may start a container.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PANEL_CSP } from '../../../electron/http/panel-files.js';
import { containersOf, sandbox, waitFor } from '../helpers.js';
import { startTestApp, type TestApp } from './control-helpers.js';

function rawRequest(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe.skipIf(!sandbox.available)('control API over HTTP: security', () => {
  let t: TestApp;
  let port: number;
  const call = (headers: Record<string, string>, method = 'live.snapshot', body = '{}') =>
    rawRequest(port, { method: 'POST', path: `/api/call/${method}`, headers: { 'content-type': 'application/json', ...headers }, body });

  beforeAll(async () => {
    t = await startTestApp();
    port = t.app.endpoint.port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('401 without the token or with a wrong one, for calls and the event stream', async () => {
    for (const auth of [{}, { authorization: 'Bearer nope' }, { authorization: `Basic ${t.token()}` }] as Record<string, string>[]) {
      const res = await call(auth);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="sandbar"');
    }
    const events = await rawRequest(port, { path: '/api/events' });
    expect(events.status).toBe(401);
    // The token is never accepted from the query string (it would end up in logs and history).
    expect((await rawRequest(port, { path: `/api/events?token=${t.token()}` })).status).toBe(401);
  });

  it('403 for a foreign Origin even with the token, and no CORS headers for anyone', async () => {
    const auth = { authorization: `Bearer ${t.token()}` };
    for (const origin of ['http://evil.example', 'http://127.0.0.1:1', 'null']) {
      const res = await call({ ...auth, origin });
      expect(res.status).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    const own = await call({ ...auth, origin: `http://127.0.0.1:${port}` });
    expect(own.status).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await rawRequest(port, { method: 'OPTIONS', path: '/api/call/settings.update', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(403);
  });

  it('403 for a non-loopback Host (DNS rebinding)', async () => {
    const res = await call({ authorization: `Bearer ${t.token()}`, host: `evil.example:${port}` });
    expect(res.status).toBe(403);
  });

  it('refuses a form-encoded body (no JSON content type) and a non-JSON body', async () => {
    const auth = { authorization: `Bearer ${t.token()}` };
    expect((await rawRequest(port, { method: 'POST', path: '/api/call/live.setPaused', headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, body: 'paused=true' })).status).toBe(415);
    const bad = await call(auth, 'live.setPaused', '{paused:');
    expect(bad.status).toBe(400);
    expect(t.app.core.engine.paused).toBe(false);
  });

  it('serves the panel with the CSP, and refuses paths outside it', async () => {
    const page = await rawRequest(port, { path: '/' });
    // The build may not exist in a unit run; either way the CSP header is on the answer.
    expect([200, 404]).toContain(page.status);
    expect(page.headers['content-security-policy']).toBe(PANEL_CSP);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect((await rawRequest(port, { path: '/../../../../etc/passwd' })).status).toBe(404);
    expect((await rawRequest(port, { path: '/%2e%2e/%2e%2e/etc/passwd' })).status).toBe(404);
  });

  it('none of this ran anything: no execution recorded, and only the health probe made a container', async () => {
    expect(await waitFor(() => t.app.core.history.list().items.length === 0 && containersOf(t.app.core.engine.owner.instanceId).length === 0, 90_000)).toBe(true);
    expect(t.app.core.engine.snapshot()).toMatchObject({ running: [], queued: [] });
  });
});
