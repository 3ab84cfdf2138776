// The index proxy against a local upstream: wheels with hashes only, every byte checked before pip sees
// it, nothing served that the index did not list, and every request in the log with a reason.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexProxy } from '../../../electron/packages/index-proxy.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const servers: http.Server[] = [];

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function get(base: string, path: string): Promise<{ status: number; body: Buffer }> {
  const res = await fetch(base + path);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

function proxyFor(indexUrl: string) {
  const stored = new Map<string, Buffer>();
  const proxy = new IndexProxy({ indexUrl, wheels: { get: async (s) => stored.get(s) ?? null, put: async (s, _n, d) => void stored.set(s, d) }, timeoutMs: 2000 });
  servers.push(proxy.server);
  return { proxy, stored };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe('IndexProxy', () => {
  const good = Buffer.from('good wheel bytes');
  const bad = Buffer.from('tampered bytes');

  async function upstream() {
    return listen((req, res) => {
      if (req.url === '/simple/tinypkg/') {
        res.end(`<a href="/f/tinypkg-1.0-py3-none-any.whl#sha256=${sha(good)}">tinypkg-1.0-py3-none-any.whl</a>
          <a href="/f/tinypkg-0.9-py3-none-any.whl#sha256=${sha(good)}">tinypkg-0.9-py3-none-any.whl</a>
          <a href="/f/tinypkg-1.0.tar.gz#sha256=${'c'.repeat(64)}">tinypkg-1.0.tar.gz</a>
          <a href="/f/nohash-1.0-py3-none-any.whl">nohash-1.0-py3-none-any.whl</a>`);
      } else if (req.url === '/simple/evil/') {
        res.end(`<a href="/f/evil-1.0-py3-none-any.whl#sha256=${sha(good)}">evil-1.0-py3-none-any.whl</a>`);
      } else if (req.url === '/simple/srconly/') {
        res.end(`<a href="/f/srconly-1.0.tar.gz#sha256=${'d'.repeat(64)}">srconly-1.0.tar.gz</a>`);
      } else if (req.url === '/f/tinypkg-1.0-py3-none-any.whl' || req.url === '/f/tinypkg-0.9-py3-none-any.whl') {
        res.end(good);
      } else if (req.url === '/f/evil-1.0-py3-none-any.whl') {
        res.end(bad);
      } else {
        res.writeHead(404).end();
      }
    });
  }

  it('lists only hashed wheels, serves verified bytes, and keeps them', async () => {
    const { proxy, stored } = proxyFor(`${await upstream()}/simple/`);
    const base = await listen((req, res) => proxy.server.emit('request', req, res));
    const page = await get(base, '/simple/TinyPkg/');
    expect(page.status).toBe(200);
    const html = page.body.toString();
    expect(html).toContain(`/files/${sha(good)}/tinypkg-1.0-py3-none-any.whl#sha256=${sha(good)}`);
    expect(html).not.toContain('tar.gz');
    expect(html).not.toContain('nohash');
    const file = await get(base, `/files/${sha(good)}/tinypkg-1.0-py3-none-any.whl`);
    expect(file.body.equals(good)).toBe(true);
    expect(stored.get(sha(good))?.equals(good)).toBe(true);
    expect(proxy.log.map((f) => [f.kind, f.status])).toEqual([['page', 'ok'], ['file', 'ok']]);
  });

  it('refuses bytes that do not match the listed hash, naming the file and both hashes', async () => {
    const { proxy, stored } = proxyFor(`${await upstream()}/simple/`);
    const base = await listen((req, res) => proxy.server.emit('request', req, res));
    await get(base, '/simple/evil/');
    const file = await get(base, `/files/${sha(good)}/evil-1.0-py3-none-any.whl`);
    expect(file.status).toBe(502);
    expect(file.body.length).toBe(0);
    expect(stored.size).toBe(0);
    expect(proxy.firstProblem?.detail).toBe(`hash mismatch for evil-1.0-py3-none-any.whl: the index says sha256 ${sha(good)}, the file has ${sha(bad)}`);
  });

  it('serves nothing the index did not list', async () => {
    const { proxy } = proxyFor(`${await upstream()}/simple/`);
    const base = await listen((req, res) => proxy.server.emit('request', req, res));
    expect((await get(base, `/files/${'e'.repeat(64)}/anything.whl`)).status).toBe(404);
    expect((await get(base, '/etc/passwd')).status).toBe(404);
    expect(proxy.log).toEqual([]);
  });

  it('says a project publishes no wheel, and that an unknown one does not exist', async () => {
    const { proxy } = proxyFor(`${await upstream()}/simple/`);
    const base = await listen((req, res) => proxy.server.emit('request', req, res));
    await get(base, '/simple/srconly/');
    expect(proxy.log[0]?.detail).toContain('publishes no wheel');
    expect((await get(base, '/simple/nope/')).status).toBe(404);
    expect(proxy.log[1]).toMatchObject({ status: 'not_found', detail: 'no project named nope on the index' });
  });

  it('reports an unreachable index', async () => {
    const closed = await listen(() => {});
    await new Promise((r) => servers.pop()!.close(r));
    const { proxy } = proxyFor(`${closed}/simple/`);
    const base = await listen((req, res) => proxy.server.emit('request', req, res));
    expect((await get(base, '/simple/tinypkg/')).status).toBe(502);
    expect(proxy.firstProblem?.detail).toMatch(/^the package index is unreachable: ECONNREFUSED/);
  });
});
