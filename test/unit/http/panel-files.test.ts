// Serving the built panel: paths stay inside the folder, every answer carries the security headers,
// the page is never cached and hashed assets always are. A real HTTP server over a temporary folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, symlinkSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PANEL_CSP, PanelFiles, resolvePanelPath } from '../../../electron/http/panel-files.js';

// A file that is there when PanelFiles stats it and gone when it opens it (a rebuild of the panel while
// `sandbar serve` runs): `stat` answers for it as for a small file, the real open then fails.
const VANISHING = 'vanished.js';
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  return {
    ...real,
    stat: async (file: string) => {
      if (String(file).endsWith(VANISHING)) return { ...(await real.stat(import.meta.filename)), isFile: () => true, size: 10 };
      return real.stat(file);
    },
  };
});

const INDEX = '<!doctype html><title>Sandbar</title><script type="module" src="/assets/x.js"></script>';
const SCRIPT = 'console.log("panel");\n';

describe('resolvePanelPath', () => {
  const root = path.resolve(tmpdir(), 'sandbar-panel-root');

  it('maps / (and nothing) to index.html', () => {
    expect(resolvePanelPath(root, '/')).toBe(path.join(root, 'index.html'));
    expect(resolvePanelPath(root, '')).toBe(path.join(root, 'index.html'));
  });

  it('maps paths inside the folder, decoding them', () => {
    expect(resolvePanelPath(root, '/assets/x.js')).toBe(path.join(root, 'assets', 'x.js'));
    expect(resolvePanelPath(root, '/assets/a%20b.css')).toBe(path.join(root, 'assets', 'a b.css'));
    expect(resolvePanelPath(root, '/assets/../index.html')).toBe(path.join(root, 'index.html'));
  });

  it('refuses to leave the folder', () => {
    for (const bad of [
      '/..',
      '/../',
      '/../../etc/passwd',
      '/assets/../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/%2E%2E%2Fsecret',
      '/assets/%2e%2e%2f%2e%2e%2fsecret',
      `/../${path.basename(root)}-sibling/index.html`,
    ]) {
      expect(resolvePanelPath(root, bad), bad).toBeNull();
    }
  });

  it('keeps absolute-looking paths inside the folder', () => {
    for (const p of ['//etc/passwd', '/%2Fetc%2Fpasswd', '///etc/passwd']) {
      const resolved = resolvePanelPath(root, p);
      expect(resolved, p).toBe(path.join(root, 'etc', 'passwd'));
    }
  });

  it('refuses NUL bytes and malformed escapes', () => {
    expect(resolvePanelPath(root, '/index.html%00.js')).toBeNull();
    expect(resolvePanelPath(root, '/index.html\0')).toBeNull();
    expect(resolvePanelPath(root, '/%E0%A4%A')).toBeNull();
    expect(resolvePanelPath(root, '/%')).toBeNull();
  });
});

describe('PanelFiles.matches', () => {
  it('leaves the MCP endpoint and the API to others', () => {
    const files = new PanelFiles(tmpdir());
    expect(files.matches('/mcp')).toBe(false);
    expect(files.matches('/api/call/live.snapshot')).toBe(false);
    expect(files.matches('/api/events')).toBe(false);
    expect(files.matches('/')).toBe(true);
    expect(files.matches('/assets/x.js')).toBe(true);
    expect(files.matches('/mcp-help.html')).toBe(true);
  });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw request: `path` goes on the request line exactly as given (no URL normalisation). */
function request(port: number, rawPath: string, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
      res.on('close', () => {
        if (!res.complete) reject(new Error('response aborted'));
      });
    });
    req.setTimeout(3000, () => req.destroy(new Error('no complete answer within 3 s')));
    req.on('error', reject);
    req.end();
  });
}

async function serve(root: string): Promise<{ server: http.Server; port: number }> {
  const files = new PanelFiles(root);
  const server = http.createServer((req, res) => {
    // The raw path (query dropped), so traversal attempts reach PanelFiles unnormalised.
    const rawPath = (req.url ?? '/').split('?')[0]!;
    files.handle(req, res, rawPath).catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function stop(server: http.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('PanelFiles over HTTP', () => {
  let base: string;
  let root: string;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    base = mkdtempSync(path.join(tmpdir(), 'sandbar-panel-'));
    root = path.join(base, 'renderer');
    mkdirSync(path.join(root, 'assets'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), INDEX);
    writeFileSync(path.join(root, 'assets', 'x.js'), SCRIPT);
    writeFileSync(path.join(root, 'assets', 'blob.bin'), Buffer.from([1, 2, 3]));
    // A file right beside the served folder: a traversal that worked would find it.
    writeFileSync(path.join(base, 'secret.txt'), 'TOP SECRET');
    ({ server, port } = await serve(root));
  });

  afterAll(async () => {
    await stop(server);
    rmSync(base, { recursive: true, force: true });
  });

  const expectSecurityHeaders = (headers: http.IncomingHttpHeaders) => {
    expect(headers['content-security-policy']).toBe(PANEL_CSP);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['access-control-allow-origin']).toBeUndefined();
  };

  it('serves index.html at / with the CSP, no caching and the HTML type', async () => {
    const answer = await request(port, '/');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(INDEX);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(INDEX)));
    expectSecurityHeaders(answer.headers);
  });

  it('serves a hashed asset with the JS type and immutable caching', async () => {
    const answer = await request(port, '/assets/x.js?v=1');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(SCRIPT);
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(answer.headers);
  });

  it('serves unknown extensions as octet-stream', async () => {
    const answer = await request(port, '/assets/blob.bin');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/octet-stream');
  });

  it('answers HEAD with the headers and no body', async () => {
    const answer = await request(port, '/', 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(INDEX)));
    expectSecurityHeaders(answer.headers);
  });

  it('answers 404 to traversal attempts sent raw, and never leaks the file beside the folder', async () => {
    for (const raw of ['/../../etc/passwd', '/../secret.txt', '/%2e%2e/secret.txt', '/%2e%2e%2fsecret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const answer = await request(port, raw);
      expect(answer.status, raw).toBe(404);
      expect(answer.body, raw).not.toContain('TOP SECRET');
      expectSecurityHeaders(answer.headers);
    }
  });

  it('answers 404 for a missing file and for a folder', async () => {
    const missing = await request(port, '/nope.js');
    expect(missing.status).toBe(404);
    expect(missing.body).toBe('Not found\n');
    const folder = await request(port, '/assets');
    expect(folder.status).toBe(404);
    const nul = await request(port, '/index.html%00');
    expect(nul.status).toBe(404);
  });

  it('survives a file that disappears between stat and read: no uncaught stream error, no hanging answer', async () => {
    const uncaught = vi.fn();
    process.on('uncaughtException', uncaught);
    try {
      const outcome = await request(port, `/assets/${VANISHING}`).then(
        (answer) => answer.status,
        (err: Error) => err.message,
      );
      // In the app an uncaught stream error ends the whole process (MCP server included).
      expect(uncaught.mock.calls.map((c) => String((c[0] as Error).message))).toEqual([]);
      // Either a refusal, or a 200 whose body was cut off; never a complete-looking success or a hang.
      expect(outcome).not.toBe(200);
      expect(String(outcome)).not.toMatch(/^no complete answer/);
    } finally {
      process.off('uncaughtException', uncaught);
    }
  });

  it('refuses a symlink inside the folder that points out of it, and serves one that stays inside', async () => {
    symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'escape.txt'));
    symlinkSync(base, path.join(root, 'up'));
    symlinkSync(path.join(root, 'assets', 'x.js'), path.join(root, 'inside.js'));
    for (const link of ['/escape.txt', '/up/secret.txt']) {
      const answer = await request(port, link);
      expect(answer.status, link).toBe(404);
      expect(answer.body).not.toContain('TOP SECRET');
    }
    const inside = await request(port, '/inside.js');
    expect(inside.status).toBe(200);
    expect(inside.body).toBe(SCRIPT);
  });

  it('refuses methods other than GET and HEAD with 405', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await request(port, '/', method);
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
      expectSecurityHeaders(answer.headers);
    }
  });
});

describe('PanelFiles without a build', () => {
  let base: string;
  let server: http.Server | undefined;

  afterEach(async () => {
    if (server) await stop(server);
    server = undefined;
    rmSync(base, { recursive: true, force: true });
  });

  it('answers 404 with a message that says to build the panel', async () => {
    base = mkdtempSync(path.join(tmpdir(), 'sandbar-panel-empty-'));
    let port: number;
    ({ server, port } = await serve(base));
    for (const p of ['/', '/index.html']) {
      const answer = await request(port, p);
      expect(answer.status).toBe(404);
      expect(answer.body).toContain('not built');
      expect(answer.body).toContain('npm run build');
      // Unauthenticated callers see this page: it names no folder of the machine.
      expect(answer.body).not.toContain(base);
      expectPlainTextRefusal(answer.headers);
    }
  });
});

function expectPlainTextRefusal(headers: http.IncomingHttpHeaders) {
  expect(headers['content-security-policy']).toBe(PANEL_CSP);
  expect(headers['content-type']).toBe('text/plain; charset=utf-8');
}
