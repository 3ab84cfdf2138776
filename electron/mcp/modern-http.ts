// MCP 2026-07-28 on the /mcp route: requests that carry that revision in their `_meta` envelope (or name
// a modern revision in MCP-Protocol-Version) go to the v2 SDK's stateless handler, one server instance
// per request; everything else stays on the 2025-11-25 sessions, unchanged. The route has already checked
// Host, Origin and the client token by then; this adapts node's request and response to the web ones the
// handler speaks.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, isJsonContentType, isLegacyRequest, type McpHttpHandler, type Server } from '@modelcontextprotocol/server';
import { errorMessage } from '../../shared/errors.js';
import { sendJson } from '../http/http-listener.js';
import { jsonRpcError } from '../http/request-guard.js';
import type { Logger } from '../logger.js';
import type { CallerAuth } from './caller.js';

function webRequest(req: IncomingMessage, body: string | undefined, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/mcp'}`, {
    method: req.method ?? 'POST',
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(signal ? { signal } : {}),
  });
}

/**
 * What the SDK's routing decision reads of a request when the body is already parsed: the method and three
 * headers (`standardHeadersOf`). A full web Request (a Headers copy of every header, a URL) cost about half
 * a millisecond on every 2025-11-25 call; this view answers the same reads from node's own header object.
 */
function headerView(req: IncomingMessage): Request {
  const headers = {
    get: (name: string): string | null => {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    has: (name: string): boolean => req.headers[name.toLowerCase()] !== undefined,
  };
  return { method: req.method ?? 'POST', headers } as unknown as Request;
}

export class ModernMcpHttp {
  private handler: McpHttpHandler;

  constructor(private readonly options: { createServer: () => Server; maxBodyBytes: number; log: Logger }) {
    this.handler = this.create();
  }

  /** The SDK's own routing decision, so the two can never disagree on what is a 2026-07-28 request. */
  async claims(req: IncomingMessage, body: unknown): Promise<boolean> {
    // With `body` given the SDK reads no body and clones nothing (isLegacyRequest's parsedBody), only headerView's parts.
    return !(await isLegacyRequest(headerView(req), body, { maxRequestBodySize: this.options.maxBodyBytes }));
  }

  async serve(req: IncomingMessage, res: ServerResponse, raw: string, body: unknown, auth: CallerAuth): Promise<void> {
    if (!isJsonContentType(req.headers['content-type'])) {
      return sendJson(res, 415, jsonRpcError(-32000, 'Unsupported Media Type: send Content-Type: application/json'));
    }
    // A client that hangs up cancels its request (and the run it waits on, as on 2025-11-25).
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const response = await this.handler.fetch(webRequest(req, raw, gone.signal), { parsedBody: body, authInfo: auth });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    res.writeHead(response.status, headers);
    if (!response.body) return void res.end();
    const reader = response.body.getReader();
    gone.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
    } catch (err) {
      if (!gone.signal.aborted) this.options.log.debug(`2026-07-28 response cut: ${errorMessage(err)}`);
    }
    res.end();
  }

  /** The listener moved or closes: in-flight exchanges end with it. */
  async reset(): Promise<void> {
    const old = this.handler;
    this.handler = this.create();
    await old.close().catch(() => {});
  }

  private create(): McpHttpHandler {
    return createMcpHandler(() => this.options.createServer(), {
      // 2025-11-25 and older never reach this handler: the route keeps serving them with sessions.
      legacy: 'reject',
      maxRequestBodySize: this.options.maxBodyBytes,
      onerror: (err) => this.options.log.debug(`2026-07-28: ${err.message}`),
    });
  }
}
