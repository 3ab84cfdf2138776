// The one listener: Host and Origin are checked before any route, routes are looked up per request (the
// product adds the control API's after the listener exists), unknown paths are 404, and a stopping
// listener answers 503.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpListener, type HttpRoute } from '../../../electron/http/http-listener.js';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const route = (path: string, text: string): HttpRoute => ({
  matches: (p) => p === path,
  handle: async (_req, res) => void res.writeHead(200).end(text),
});

let listener: HttpListener | undefined;
afterEach(async () => listener?.close());

describe('HttpListener', () => {
  it('serves a route added after it started, and 404s what no route claims', async () => {
    const routes: HttpRoute[] = [route('/a', 'A')];
    listener = new HttpListener({ port: 0, log: quiet, routes: () => routes });
    await listener.start();
    expect(await get(listener.port, '/b')).toMatchObject({ status: 404 });
    routes.push(route('/b', 'B'));
    expect(await get(listener.port, '/b')).toEqual({ status: 200, body: 'B' });
  });

  it('refuses a foreign Host or Origin before any route runs, and answers 503 once stopping', async () => {
    let ran = 0;
    listener = new HttpListener({ port: 0, log: quiet, routes: () => [{ matches: () => true, handle: async (_q, res) => void (ran++, res.writeHead(200).end()) }] });
    await listener.start();
    const port = listener.port;
    expect((await get(port, '/x', { host: `evil.example:${port}` })).status).toBe(403);
    expect((await get(port, '/x', { origin: 'http://evil.example' })).status).toBe(403);
    expect(ran).toBe(0);
    expect((await get(port, '/x')).status).toBe(200);
    listener.stopAccepting();
    expect((await get(port, '/x')).status).toBe(503);
    expect(ran).toBe(1);
  });
});
