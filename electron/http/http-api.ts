// The control API over HTTP for the panel in a browser: `POST /api/call/<method>` answers an envelope,
// `GET /api/events` is a Server-Sent Events stream of the contract's events. The endpoint has already
// checked Host and Origin; this checks the panel token (the panel has it from the one-time URL fragment).
// The client token that MCP clients carry is refused here: it may run code, never change the host.
// No CORS headers are ever sent, so no foreign page can read an answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { httpApi, type Envelope, type EventMessage } from '../../shared/contract.js';
import { bearerMatches } from './request-guard.js';
import type { ControlHandler } from '../control/control-handler.js';

const MAX_BODY_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 15_000;
/** A stream this far behind is dropped; the panel reconnects and recovers from one snapshot. */
const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;
const CALL_PREFIX = '/api/call/';

export interface HttpApiOptions {
  router: ControlHandler;
  /** The panel token (read per request, so a rotation applies at once); the client token opens nothing here. */
  token: () => string;
}

function sendEnvelope(res: ServerResponse, status: number, body: Envelope<unknown>, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
  res.end(JSON.stringify(body));
}

const refusal = (message: string): Envelope<never> => ({ ok: false, error: { code: 'invalid_request', message } });

async function readJson(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      req.resume();
      return { ok: false, status: 413, message: `Request body too large (limit ${MAX_BODY_BYTES / 1024} KiB)` };
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, status: 400, message: `The body is not JSON: ${(err as Error).message}` };
  }
}

export class HttpApi {
  constructor(private readonly options: HttpApiOptions) {}

  matches(path: string): boolean {
    return path === httpApi.events || path.startsWith(CALL_PREFIX);
  }

  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (!bearerMatches(req.headers.authorization, this.options.token())) {
      // No file paths in the answer: whoever is refused learns nothing about the machine.
      return sendEnvelope(res, 401, refusal('Unauthorized: the control API needs the panel token; open the panel from the link `npm run serve` prints'), {
        'www-authenticate': 'Bearer realm="sandbar"',
      });
    }
    if (path === httpApi.events) {
      if (req.method !== 'GET') return sendEnvelope(res, 405, refusal('Use GET for the event stream'), { allow: 'GET' });
      return this.stream(req, res);
    }
    if (req.method !== 'POST') return sendEnvelope(res, 405, refusal('Use POST to call a method'), { allow: 'POST' });
    // A JSON content type cannot be sent cross-site without a preflight, which gets no CORS answer.
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return sendEnvelope(res, 415, refusal('Send the arguments as application/json'));
    }
    const body = await readJson(req);
    if (!body.ok) return sendEnvelope(res, body.status, refusal(body.message), body.status === 413 ? { connection: 'close' } : {});
    let method: string;
    try {
      method = decodeURIComponent(path.slice(CALL_PREFIX.length));
    } catch {
      return sendEnvelope(res, 400, refusal('The method name in the path is not valid'));
    }
    const connection = req.headers[httpApi.connectionHeader];
    const answer = await this.options.router.call(method, body.value, { connectionId: typeof connection === 'string' ? connection : undefined, transport: 'http' });
    sendEnvelope(res, 200, answer);
  }

  private stream(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
      'x-accel-buffering': 'no',
    });
    res.socket?.setNoDelay(true);
    const connection = this.options.router.connect((message: EventMessage) => {
      if (res.writableLength > MAX_BACKLOG_BYTES) {
        res.destroy();
        throw new Error('event stream backlog too large');
      }
      res.write(`id: ${message.seq}\nevent: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`);
    });
    res.write(`event: connected\ndata: ${JSON.stringify({ connectionId: connection.id })}\n\n`);
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const end = () => {
      clearInterval(heartbeat);
      connection.close();
    };
    req.on('close', end);
    res.on('close', end);
  }
}
