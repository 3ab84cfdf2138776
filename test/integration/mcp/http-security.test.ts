// The HTTP endpoint's guard [SPEC 3.5], and bad input: every refusal is JSON-RPC shaped, costs nothing
// (no session, no container), and leaves the server up.
import { readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../../../electron/sandbox/engine.js';
import { loadOrCreateToken } from '../../../electron/http/token-store.js';
import { containersOf, sandbox, startEngine } from '../helpers.js';
import { httpFixture, tempHome, type HttpFixture } from './mcp-helpers.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Reply> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: target.port, path: target.pathname + target.search, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

function expectJsonRpcError(reply: Reply, status: number, code: number): void {
  expect(reply.status).toBe(status);
  const body = JSON.parse(reply.body) as { jsonrpc: string; error: { code: number; message: string }; id: unknown };
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toBeNull();
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(5);
}

describe.skipIf(!sandbox.available)('HTTP endpoint security', () => {
  let engine: Engine;
  let http: HttpFixture;
  let queued = 0;

  beforeAll(async () => {
    engine = await startEngine({ poolSize: 0 });
    engine.subscribe((e) => {
      if (e.type === 'queued') queued++;
    });
    http = await httpFixture(engine);
  });
  afterAll(async () => {
    await http?.close();
    await engine?.dispose();
  });

  const auth = () => ({ authorization: `Bearer ${http.token}` });

  it('refuses a request without a token with 401 and a Bearer challenge', async () => {
    const reply = await post(http.url, INIT);
    expectJsonRpcError(reply, 401, -32001);
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('refuses a wrong token, a token of another scheme, and a token in the query string', async () => {
    expectJsonRpcError(await post(http.url, INIT, { authorization: `Bearer ${'0'.repeat(64)}` }), 401, -32001);
    expectJsonRpcError(await post(http.url, INIT, { authorization: `Bearer ${http.token}x` }), 401, -32001);
    expectJsonRpcError(await post(http.url, INIT, { authorization: `Basic ${http.token}` }), 401, -32001);
    expectJsonRpcError(await post(`${http.url}?token=${http.token}`, INIT), 401, -32001);
    expectJsonRpcError(await post(`${http.url}?access_token=${http.token}`, INIT), 401, -32001);
  });

  it('refuses a foreign Origin with 403, even with the right token', async () => {
    expectJsonRpcError(await post(http.url, INIT, { ...auth(), origin: 'http://evil.example' }), 403, -32000);
    expectJsonRpcError(await post(http.url, INIT, { ...auth(), origin: `http://127.0.0.1:${http.endpoint.port + 1}` }), 403, -32000);
  });

  it('refuses a Host that is not loopback (DNS rebinding) with 403', async () => {
    expectJsonRpcError(await post(http.url, INIT, { ...auth(), host: `evil.example:${http.endpoint.port}` }), 403, -32000);
    expectJsonRpcError(await post(http.url, INIT, { ...auth(), host: `127.0.0.1.evil.example:${http.endpoint.port}` }), 403, -32000);
  });

  it('created no session and started no container for any refused request', () => {
    expect(http.endpoint.sessionCount).toBe(0);
    expect(queued).toBe(0);
    expect(containersOf(engine.owner.instanceId)).toEqual([]);
  });

  it('accepts the panel origin and the right token, and opens a session', async () => {
    const reply = await post(http.url, INIT, { ...auth(), origin: `http://127.0.0.1:${http.endpoint.port}` });
    expect(reply.status).toBe(200);
    expect(reply.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(http.endpoint.sessionCount).toBe(1);
  });

  it('listens on the loopback address only', () => {
    const hexPort = http.endpoint.port.toString(16).toUpperCase().padStart(4, '0');
    const listening = readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f[1]?.endsWith(`:${hexPort}`) && f[3] === '0A');
    expect(listening.map((f) => f[1])).toEqual([`0100007F:${hexPort}`]);
    const v6 = readFileSync('/proc/net/tcp6', 'utf8').split('\n').filter((l) => l.includes(`:${hexPort} `) && / 0A /.test(l));
    expect(v6).toEqual([]);
  });

  it('stores the token with owner-only permissions and keeps it across starts', () => {
    const home = tempHome();
    const first = loadOrCreateToken(home);
    expect(first.token).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateToken(home).token).toBe(first.token);
  });

  describe('bad input', () => {
    it('answers malformed JSON with a parse error and stays up', async () => {
      expectJsonRpcError(await post(http.url, '{"jsonrpc": "2.0", "id": 1, "method": ', auth()), 400, -32700);
      expect((await post(http.url, INIT, auth())).status).toBe(200);
    });

    it('answers an oversized body with 413', async () => {
      const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(5 * 1024 * 1024) } });
      const reply = await post(http.url, huge, auth());
      expectJsonRpcError(reply, 413, -32600);
      expect((await post(http.url, INIT, auth())).status).toBe(200);
    });

    it('answers a request without a session (not initialize) with 400, an unknown session with 404', async () => {
      const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expectJsonRpcError(await post(http.url, list, auth()), 400, -32000);
      expectJsonRpcError(await post(http.url, list, { ...auth(), 'mcp-session-id': '00000000-0000-0000-0000-000000000000' }), 404, -32001);
    });

    it('answers an unknown method with -32601, refuses oversized code, and keeps serving', async () => {
      const client = await http.client();
      const err = await client.request({ method: 'sandbar/nope', params: {} }, (await import('@modelcontextprotocol/sdk/types.js')).ResultSchema).catch((e: unknown) => e);
      expect((err as { code: number }).code).toBe(-32601);
      const big = (await client.callTool({ name: 'run_python', arguments: { code: `x = "${'a'.repeat(300 * 1024)}"` } })) as CallToolResult;
      expect(big.isError).toBe(true);
      expect(big.structuredContent).toMatchObject({ status: 'validation_error' });
      expect((big.structuredContent as { error: string }).error).toMatch(/Code is 301 KiB; the limit is 256 KiB/);
      const ok = (await client.callTool({ name: 'run_python', arguments: { code: 'print("still up")' } })) as CallToolResult;
      expect(ok.content).toEqual([{ type: 'text', text: 'still up' }]);
      const unknownTool = (await client.callTool({ name: 'foo', arguments: {} })) as CallToolResult;
      expect(unknownTool.isError).toBe(true);
      expect(unknownTool.structuredContent).toMatchObject({ error: 'Unknown tool: foo' });
    });
  });
});
