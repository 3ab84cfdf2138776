// The HTTP endpoint never fills up: 1,000 clients that initialize and never DELETE against a real
// `sandbar serve` all get in; an evicted session answers 404 (the client initializes again); a session with
// a stream open is never evicted, and an idle one expires. Loopback only; no container is needed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { HttpEndpoint } from '../../../electron/mcp/http-endpoint.js';
import { killAllChildren } from './real-clients-helpers.js';
import { quietLog } from './mcp-helpers.js';
import { startServed, type Served } from '../security/serve-helpers.js';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'reconnecting', version: '1' } } };

function headers(token: string, session?: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}),
  };
}

/** One raw initialize, as a reconnecting client sends it: the status and the session it got. */
async function initialize(url: string, token: string): Promise<{ status: number; session: string | null }> {
  const res = await fetch(url, { method: 'POST', headers: headers(token), body: JSON.stringify(INIT) });
  await res.text();
  return { status: res.status, session: res.headers.get('mcp-session-id') };
}

async function ping(url: string, token: string, session: string): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: headers(token, session), body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });
  await res.text();
  return res.status;
}

describe('a real sandbar serve with 1,000 reconnecting clients', () => {
  let s: Served;

  beforeAll(async () => {
    s = await startServed();
  }, 90_000);

  afterAll(async () => {
    await s?.stop();
    killAllChildren();
  });

  it('lets every one of 1,000 initializes without DELETE in (never 503), evicting the least recently used idle session', async () => {
    const token = s.clientToken();
    const statuses = new Map<number, number>();
    const sessions: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const { status, session } = await initialize(s.serve.url, token);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (session) sessions.push(session);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1000 });
    expect(new Set(sessions).size).toBe(1000);
    // The newest 256 are kept; the first ones were evicted and say so with 404, so their client starts again.
    expect(await ping(s.serve.url, token, sessions.at(-1)!)).toBe(200);
    expect(await ping(s.serve.url, token, sessions[0]!)).toBe(404);
    // A real SDK client still connects and works.
    const client = await s.mcp();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['run_python']);
  }, 120_000);
});

describe('the endpoint in process, at a cap of 3', () => {
  let endpoint: HttpEndpoint;
  const token = 'eviction-test-token';

  beforeAll(async () => {
    endpoint = new HttpEndpoint({
      port: 0,
      token: () => token,
      createServer: () => new Server({ name: 'eviction-test', version: '1.0.0' }, { capabilities: {} }),
      log: quietLog,
      maxSessions: 3,
      sessionIdleMs: 1500,
    });
    await endpoint.start();
  });

  afterAll(async () => {
    await endpoint?.close();
  });

  it('never evicts a session whose stream is open, and answers 503 only while every session is busy', async () => {
    const streams: AbortController[] = [];
    const busy: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { session } = await initialize(endpoint.url, token);
      const abort = new AbortController();
      const res = await fetch(endpoint.url, { method: 'GET', headers: { ...headers(token, session!), accept: 'text/event-stream' }, signal: abort.signal });
      expect(res.status).toBe(200);
      streams.push(abort);
      busy.push(session!);
    }
    expect((await initialize(endpoint.url, token)).status).toBe(503);
    for (const session of busy) expect(await ping(endpoint.url, token, session)).toBe(200);
    // One stream closes: its session is idle, so a new client takes its place at once.
    streams[0]!.abort();
    await new Promise((r) => setTimeout(r, 100));
    const fresh = await initialize(endpoint.url, token);
    expect(fresh.status).toBe(200);
    expect(await ping(endpoint.url, token, busy[0]!)).toBe(404);
    expect(await ping(endpoint.url, token, busy[1]!)).toBe(200);
    for (const s of streams) s.abort();
  });

  it('closes a session left idle past sessionIdleMs', async () => {
    const { session } = await initialize(endpoint.url, token);
    expect(await ping(endpoint.url, token, session!)).toBe(200);
    await new Promise((r) => setTimeout(r, 3500));
    expect(await ping(endpoint.url, token, session!)).toBe(404);
  });
});
