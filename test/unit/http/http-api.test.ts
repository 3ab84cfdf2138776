// The control API over HTTP: bearer token, JSON bodies, the call envelope, and the SSE event stream.
// A real node:http server on loopback; the router is a fake that records what reaches it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ControlConnection, ControlHandler } from '../../../electron/control/control-handler.js';
import { HttpApi } from '../../../electron/http/http-api.js';
import { httpApi, type Envelope, type EventMessage } from '../../../shared/contract.js';

const T = 'sbk_test_2f9c1d7e4b8a6035';
const AUTH = { authorization: `Bearer ${T}` };
const JSON_TYPE = { 'content-type': 'application/json' };

class FakeRouter implements ControlHandler {
  readonly calls: { method: string; args: unknown; connectionId: string | undefined; transport: string | undefined }[] = [];
  readonly connections: { id: string; send: (message: EventMessage) => void; close: ReturnType<typeof vi.fn> }[] = [];
  answer: Envelope<unknown> = { ok: true, value: { pong: true } };

  async call(method: string, args: unknown, caller?: { connectionId?: string | undefined; transport: string }): Promise<Envelope<unknown>> {
    this.calls.push({ method, args, connectionId: caller?.connectionId, transport: caller?.transport });
    return this.answer;
  }

  connect(send: (message: EventMessage) => void): ControlConnection {
    const id = `conn-${this.connections.length + 1}`;
    const close = vi.fn();
    this.connections.push({ id, send, close });
    return { id, close };
  }
}

let router: FakeRouter;
let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    new HttpApi({ router, token: () => T }).handle(req, res, pathname).catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  router = new FakeRouter();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

function send(method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const callPath = (method: string) => `/api/call/${method}`;

describe('HttpApi authorization', () => {
  it('answers 401 without a token and never reaches the router', async () => {
    const answer = await send('POST', callPath('live.snapshot'), JSON_TYPE, '{}');
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer realm="sandbar"');
    expect(answer.json).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    // It names the credential it needs, but no file path: a refused caller learns nothing about the machine.
    expect((answer.json as { error: { message: string } }).error.message).toContain('panel token');
    expect(answer.text).not.toMatch(/\/[a-z]+\//);
    expect(answer.text).not.toContain(T);
    expect(router.calls).toEqual([]);
  });

  it('answers 401 to a wrong token, a wrong scheme, and a token in the query string', async () => {
    for (const [path, headers] of [
      [callPath('live.snapshot'), { authorization: `Bearer ${T}x` }],
      [callPath('live.snapshot'), { authorization: `Basic ${T}` }],
      [callPath('live.snapshot'), { authorization: T }],
      [`${callPath('live.snapshot')}?token=${T}`, {}],
    ] as const) {
      const answer = await send('POST', path, { ...JSON_TYPE, ...headers }, '{}');
      expect(answer.status, JSON.stringify(headers)).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="sandbar"');
    }
    expect(router.calls).toEqual([]);
  });

  it('answers 401 on the event stream and opens no connection', async () => {
    const answer = await send('GET', httpApi.events, { authorization: 'Bearer nope' });
    expect(answer.status).toBe(401);
    expect(router.connections).toEqual([]);
  });
});

describe('HttpApi calls', () => {
  it('answers 415 without a JSON content type', async () => {
    for (const headers of [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }] as Record<string, string>[]) {
      const answer = await send('POST', callPath('live.snapshot'), { ...AUTH, ...headers }, '{}');
      expect(answer.status, JSON.stringify(headers)).toBe(415);
      expect(answer.json).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    expect(router.calls).toEqual([]);
  });

  it('answers 400 to a body that is not JSON', async () => {
    const answer = await send('POST', callPath('executions.get'), { ...AUTH, ...JSON_TYPE }, '{"id": ');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect((answer.json as { error: { message: string } }).error.message).toMatch(/not JSON/);
    expect(router.calls).toEqual([]);
  });

  it('answers 413 to a body over 1 MiB', async () => {
    const big = JSON.stringify({ patch: { pad: 'x'.repeat(1024 * 1024) } });
    const answer = await send('POST', callPath('settings.update'), { ...AUTH, ...JSON_TYPE }, big);
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(router.calls).toEqual([]);
  });

  it('accepts a body just under the limit', async () => {
    const body = JSON.stringify({ patch: { pad: 'x'.repeat(1024 * 1024 - 100) } });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1024 * 1024);
    const answer = await send('POST', callPath('settings.update'), { ...AUTH, ...JSON_TYPE }, body);
    expect(answer.status).toBe(200);
    expect(router.calls).toHaveLength(1);
  });

  it('answers 405 to GET on a call path and to POST on the events path', async () => {
    const get = await send('GET', callPath('live.snapshot'), AUTH);
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    const post = await send('POST', httpApi.events, { ...AUTH, ...JSON_TYPE }, '{}');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET');
    expect(router.calls).toEqual([]);
    expect(router.connections).toEqual([]);
  });

  it('passes the method, the parsed body and the connection header to the router and answers its envelope', async () => {
    router.answer = { ok: true, value: { id: 'r1', stdout: 'hi' } };
    const answer = await send(
      'POST',
      callPath('executions.get'),
      { ...AUTH, 'content-type': 'application/json; charset=utf-8', [httpApi.connectionHeader]: 'conn-42', origin: 'http://127.0.0.1' },
      JSON.stringify({ id: 'r1', nested: { a: [1, 2] } }),
    );
    expect(router.calls).toEqual([{ method: 'executions.get', args: { id: 'r1', nested: { a: [1, 2] } }, connectionId: 'conn-42', transport: 'http' }]);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ ok: true, value: { id: 'r1', stdout: 'hi' } });
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('answers an error envelope from the router with status 200 as it is', async () => {
    router.answer = { ok: false, error: { code: 'invalid_request', message: 'Unknown method: nope', fields: { a: 'b' } } };
    const answer = await send('POST', callPath('nope'), { ...AUTH, ...JSON_TYPE }, '{}');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(router.answer);
    expect(router.calls[0]?.method).toBe('nope');
  });

  it('decodes the method name from the path', async () => {
    await send('POST', '/api/call/live%2EsetPaused', { ...AUTH, ...JSON_TYPE }, '{"paused":true}');
    expect(router.calls).toEqual([{ method: 'live.setPaused', args: { paused: true }, connectionId: undefined, transport: 'http' }]);
  });

  it('answers a method name with a malformed escape with a refusal envelope, not an internal error', async () => {
    const answer = await send('POST', '/api/call/%E0%A4%A', { ...AUTH, ...JSON_TYPE }, '{}');
    expect(answer.status).toBeLessThan(500);
    expect(answer.json).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('treats an empty body as empty arguments and no connection header as none', async () => {
    await send('POST', callPath('live.snapshot'), { ...AUTH, ...JSON_TYPE }, '');
    expect(router.calls).toEqual([{ method: 'live.snapshot', args: {}, connectionId: undefined, transport: 'http' }]);
  });
});

interface Frame {
  id?: string;
  event?: string;
  data?: string;
}

function parseFrames(text: string): Frame[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() && !block.startsWith(':'))
    .map((block) => {
      const frame: Frame = {};
      for (const line of block.split('\n')) {
        const at = line.indexOf(': ');
        const key = line.slice(0, at);
        const value = line.slice(at + 2);
        if (key === 'id' || key === 'event' || key === 'data') frame[key] = value;
      }
      return frame;
    });
}

/** Opens the event stream; `text()` is everything received so far. */
function openStream(headers: Record<string, string> = AUTH) {
  let received = '';
  let req!: http.ClientRequest;
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    req = http.request({ host: '127.0.0.1', port, path: httpApi.events, method: 'GET', headers, agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (received += chunk));
      res.on('error', () => {});
      resolve(res);
    });
    req.on('error', reject);
    req.end();
  });
  return { response, text: () => received, close: () => req.destroy() };
}

describe('HttpApi event stream', () => {
  it('opens with status 200, the SSE type and a connected frame naming the connection', async () => {
    const stream = openStream();
    const res = await stream.response;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    await vi.waitFor(() => expect(parseFrames(stream.text())).toHaveLength(1));
    expect(router.connections).toHaveLength(1);
    const [connected] = parseFrames(stream.text());
    expect(connected?.event).toBe('connected');
    expect(JSON.parse(connected!.data!)).toEqual({ connectionId: router.connections[0]!.id });
    stream.close();
  });

  it('delivers the messages pushed through send as id/event/data frames, in order', async () => {
    const stream = openStream();
    await stream.response;
    await vi.waitFor(() => expect(router.connections).toHaveLength(1));
    const { send: push } = router.connections[0]!;
    const messages: EventMessage[] = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? { event: 'output.chunk', seq: i + 1, data: { id: 'r1', stdout: `line ${i}\nwith "quotes" and a newline`, stderr: '' } }
        : { event: 'execution.stats', seq: i + 1, data: { samples: [{ id: 'r1', memoryBytes: i * 1000 }] } },
    );
    for (const message of messages) push(message);

    await vi.waitFor(() => expect(parseFrames(stream.text())).toHaveLength(51));
    const frames = parseFrames(stream.text()).slice(1);
    expect(frames.map((f) => ({ event: f.event, seq: Number(f.id), data: JSON.parse(f.data!) as unknown }))).toEqual(messages);
    stream.close();
  });

  it('closes the router connection when the client goes away', async () => {
    const stream = openStream();
    await stream.response;
    await vi.waitFor(() => expect(router.connections).toHaveLength(1));
    const connection = router.connections[0]!;
    expect(connection.close).not.toHaveBeenCalled();
    stream.close();
    await vi.waitFor(() => expect(connection.close).toHaveBeenCalled());
  });

  it('keeps the stream open after the request is read (no early close)', async () => {
    const stream = openStream();
    await stream.response;
    await vi.waitFor(() => expect(router.connections).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const connection = router.connections[0]!;
    expect(connection.close).not.toHaveBeenCalled();
    connection.send({ event: 'live.changed', seq: 1, data: { paused: false, pool: { size: 1, ready: 1, starting: 0, lastError: null, refilling: false }, running: 0, queued: 0 } });
    await vi.waitFor(() => expect(parseFrames(stream.text())).toHaveLength(2));
    stream.close();
  });
});
