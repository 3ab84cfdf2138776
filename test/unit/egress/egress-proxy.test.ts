// The egress proxy with real sockets on 127.0.0.1 (no container: connections are handed to it the way the
// tunnel will hand them): plain HTTP forwarded, refusals answered 403 with the body clients look for, deny
// over allow, CONNECT tunnelled, the secret's header only for its host, a record per request, budgets.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EgressBudget } from '../../../electron/egress/egress-budget.js';
import { EgressPolicy } from '../../../electron/egress/egress-policy.js';
import { EgressProxy } from '../../../electron/egress/egress-proxy.js';
import { placeholderOf, resolveSecrets } from '../../../electron/egress/egress-secrets.js';
import { SecretsSchema } from '../../../shared/egress-settings.js';

const SECRET = 'sk-test-value-never-in-the-sandbox';
let upstream: http.Server;
let other: http.Server;
let echo: net.Server;
const seen: { server: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
const port = (s: net.Server) => (s.address() as AddressInfo).port;

function httpServer(name: string): http.Server {
  return http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ server: name, headers: req.headers, body });
      res.end(`${name}: ${req.method} ${req.url}`);
    });
  });
}

beforeAll(async () => {
  upstream = httpServer('upstream');
  other = httpServer('other');
  echo = net.createServer((s) => {
    s.on('error', () => {}); // the proxy cuts tunnels mid-stream on purpose
    s.pipe(s);
  });
  await Promise.all([upstream, other, echo].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
});
afterAll(() => {
  for (const s of [upstream, other, echo]) s.close();
});

let front: net.Server | undefined;
let proxy: EgressProxy | undefined;
afterEach(() => {
  proxy?.close();
  front?.close();
});

/** A proxy for one "run", reached through a loopback listener that hands each socket to it. */
async function start(allow: string[], deny: string[] = [], limits = { maxConnections: 100, maxBytes: 1_000_000 }) {
  const budget = new EgressBudget(limits);
  const { secrets } = resolveSecrets(SecretsSchema.parse({ API_KEY: { value: SECRET, hosts: [`127.0.0.1:${port(upstream)}`] } }), { env: {}, readFile: () => '' });
  const names: Record<string, string[]> = { 'upstream.test': ['127.0.0.1'] };
  proxy = new EgressProxy({ policy: new EgressPolicy({ allow, deny }), budget, secrets, resolve: async (h) => names[h] ?? [] });
  const p = proxy;
  front = net.createServer((socket) => p.accept(socket));
  await new Promise<void>((r) => front!.listen(0, '127.0.0.1', r));
  return { budget, proxyPort: port(front) };
}

/** Waits for a condition the proxy reaches after a socket closes (no fixed sleep). */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ok(); i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
}

function viaProxy(proxyPort: number, url: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, path: url, method: body ? 'POST' : 'GET', headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function connect(proxyPort: number, authority: string): Promise<{ status: number; socket: net.Socket; head: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, method: 'CONNECT', path: authority, agent: false });
    // Node reports any answer to CONNECT as 'connect'; a refusal's body follows on the socket.
    req.on('connect', (res, socket, head) => {
      if (res.statusCode === 200) return resolve({ status: 200, socket, head: '' });
      let text = head.toString();
      socket.on('data', (c: Buffer) => (text += c.toString()));
      socket.on('end', () => resolve({ status: res.statusCode ?? 0, socket, head: text }));
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: res.socket, head: text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('EgressProxy', () => {
  it('forwards allowed plain HTTP, refuses the rest with 403, and records each request', async () => {
    const { budget, proxyPort } = await start([`127.0.0.1:${port(upstream)}`]);
    const ok = await viaProxy(proxyPort, `http://127.0.0.1:${port(upstream)}/v1/items?q=1`, {}, 'hello');
    expect(ok).toEqual({ status: 200, body: 'upstream: POST /v1/items?q=1' });
    const refused = await viaProxy(proxyPort, `http://127.0.0.1:${port(other)}/`);
    expect(refused.status).toBe(403);
    expect(refused.body).toBe(`sandbar: egress refused: 127.0.0.1:${port(other)}: not allowed\n`);
    expect(budget.records).toEqual([
      { host: '127.0.0.1', port: port(upstream), decision: 'allowed', method: 'POST', path: '/v1/items', status: 200, bytesOut: 5, bytesIn: 'upstream: POST /v1/items?q=1'.length, secret: 'API_KEY' },
      { host: '127.0.0.1', port: port(other), decision: 'denied', reason: 'not allowed', method: 'GET', path: '/', bytesOut: 0, bytesIn: 0 },
    ]);
  });

  it('refuses a name resolving to 127.0.0.1 unless the literal is allowed, and lets deny win', async () => {
    let { proxyPort } = await start(['upstream.test']);
    const refused = await viaProxy(proxyPort, `http://upstream.test:${port(upstream)}/`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatch(/^sandbar: egress refused: upstream\.test:\d+: private address 127\.0\.0\.1/);
    proxy!.close();
    front!.close();
    ({ proxyPort } = await start(['upstream.test', '127.0.0.1']));
    expect((await viaProxy(proxyPort, `http://upstream.test:${port(upstream)}/named`)).body).toBe('upstream: GET /named');
    proxy!.close();
    front!.close();
    ({ proxyPort } = await start(['upstream.test', '127.0.0.1'], ['upstream.test']));
    expect((await viaProxy(proxyPort, `http://upstream.test:${port(upstream)}/`)).body).toMatch(/denied by a rule \(upstream\.test\)/);
  });

  it('adds the secret for its host only, replacing the placeholder the code sent; elsewhere the placeholder stays', async () => {
    const { proxyPort } = await start([`127.0.0.1`]);
    seen.length = 0;
    const placeholder = `Bearer ${placeholderOf('API_KEY')}`;
    await viaProxy(proxyPort, `http://127.0.0.1:${port(upstream)}/`, { Authorization: placeholder });
    await viaProxy(proxyPort, `http://127.0.0.1:${port(other)}/`, { Authorization: placeholder });
    expect(seen.map((s) => [s.server, s.headers.authorization])).toEqual([
      ['upstream', `Bearer ${SECRET}`],
      ['other', placeholder],
    ]);
  });

  it('tunnels an allowed CONNECT and refuses another with the 403 body', async () => {
    const { budget, proxyPort } = await start([`127.0.0.1:${port(echo)}`]);
    const tunnel = await connect(proxyPort, `127.0.0.1:${port(echo)}`);
    expect(tunnel.status).toBe(200);
    const answer = await new Promise<string>((resolve) => {
      tunnel.socket.once('data', (c: Buffer) => resolve(c.toString()));
      tunnel.socket.write('ping');
    });
    expect(answer).toBe('ping');
    tunnel.socket.destroy();
    const refused = await connect(proxyPort, `127.0.0.1:${port(upstream)}`);
    expect(refused.status).toBe(403);
    expect(refused.head).toBe(`sandbar: egress refused: 127.0.0.1:${port(upstream)}: not allowed\n`);
    await until(() => budget.records.length === 2);
    expect(budget.records.map((r) => [r.method, r.decision, r.bytesOut, r.bytesIn])).toEqual([
      ['CONNECT', 'allowed', 4, 4],
      ['CONNECT', 'denied', 0, 0],
    ]);
  });

  it('ends a flood: past the run\'s connections every request is refused, and bytes past the budget cut the tunnel', async () => {
    const { budget, proxyPort } = await start(['127.0.0.1'], [], { maxConnections: 3, maxBytes: 2 * 1024 * 1024 });
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await viaProxy(proxyPort, `http://127.0.0.1:${port(upstream)}/${i}`));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 403, 403]);
    expect(answers[4]!.body).toMatch(/the run opened its 3 connections/);

    const small = await start([`127.0.0.1:${port(echo)}`], [], { maxConnections: 10, maxBytes: 1024 * 1024 });
    const tunnel = await connect(small.proxyPort, `127.0.0.1:${port(echo)}`);
    const closed = new Promise<void>((r) => tunnel.socket.once('close', () => r()));
    tunnel.socket.on('data', () => {});
    tunnel.socket.on('error', () => {}); // the proxy cuts it mid-write: that is the point
    tunnel.socket.write(Buffer.alloc(900 * 1024));
    await closed;
    expect(small.budget.usage.bytes).toBeGreaterThan(1024 * 1024);
    expect(small.budget.usage.open).toBe(0);
    expect(budget.usage.open).toBe(0);
  });

  it('answers a request that is not proxy-form with 400 and opens nothing', async () => {
    const { budget, proxyPort } = await start(['127.0.0.1']);
    const answer = await viaProxy(proxyPort, '/relative');
    expect(answer.status).toBe(400);
    expect(budget.usage.connections).toBe(0);
  });
});
