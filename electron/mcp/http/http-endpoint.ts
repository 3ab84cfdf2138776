// The local Streamable HTTP endpoint: 127.0.0.1 only, every request checked (Host, Origin, bearer token)
// before it can create a session or a container, one MCP server per session, sessions cleaned on close.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { AppError, errorMessage } from '../../../shared/errors.js';
import type { Logger } from '../../logger.js';
import { bearerMatches, isAllowedOrigin, isLoopbackHost, jsonRpcError } from './request-guard.js';

export interface HttpEndpointOptions {
  port: number;
  /** The client token, read per request so a rotated token applies at once. */
  token: () => string;
  createServer: () => McpServer;
  log: Logger;
  maxBodyBytes?: number;
  maxSessions?: number;
  /** More routes on the same listener (the control API, the panel's files), after the Host/Origin checks. */
  routes?: ExtraRoute[];
}

export interface ExtraRoute {
  matches(path: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

class BodyTooLarge extends Error {}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class HttpEndpoint {
  private http: HttpServer | undefined;
  private readonly sessions = new Map<string, Session>();
  private boundPort = 0;
  private closing = false;

  constructor(private readonly options: HttpEndpointOptions) {}

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.boundPort}/mcp`;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  get listening(): boolean {
    return this.http?.listening === true;
  }

  async start(): Promise<void> {
    this.http = await this.listen(this.options.port);
    this.boundPort = (this.http.address() as AddressInfo).port;
  }

  /**
   * Moves to another port (a settings change): the new listener opens first, so a port in use leaves the
   * old one serving and the error says why. MCP sessions belong to the old listener and end with it.
   */
  async relisten(port: number, beforeClosingOld?: () => Promise<void> | void): Promise<void> {
    const next = await this.listen(port);
    const old = this.http;
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    this.http = next;
    this.boundPort = (next.address() as AddressInfo).port;
    // Streams on the old listener can still be told where to go (the panel follows the move).
    await beforeClosingOld?.();
    await Promise.allSettled(sessions.map((s) => s.transport.close()));
    if (old) {
      const closed = new Promise<void>((resolve) => old.close(() => resolve()));
      old.closeAllConnections();
      await closed;
    }
  }

  private async listen(port: number): Promise<HttpServer> {
    const http = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        this.options.log.error(`HTTP request failed: ${errorMessage(err)}`);
        send(res, 500, jsonRpcError(-32603, 'Internal error'));
      });
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          err.code === 'EADDRINUSE'
            ? new AppError('invalid_config', `Port ${port} on 127.0.0.1 is already in use. Pass --port N, or --port 0 for a free one.`)
            : err,
        ),
      );
      // Loopback only: the endpoint is never reachable from another machine.
      http.listen(port, '127.0.0.1', () => resolve());
    });
    return http;
  }

  /** New requests get 503 from now on; sessions stay open so in-flight answers still reach clients. */
  stopAccepting(): void {
    this.closing = true;
  }

  /** Stops listening and closes every session. */
  async close(): Promise<void> {
    this.closing = true;
    const closed = new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
    await Promise.allSettled([...this.sessions.values()].map((s) => s.transport.close()));
    this.sessions.clear();
    this.http?.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const port = this.boundPort;
    if (!isLoopbackHost(req.headers.host, port)) {
      return send(res, 403, jsonRpcError(-32000, 'Forbidden: the Host header must be a loopback address'));
    }
    if (!isAllowedOrigin(req.headers.origin, port)) {
      return send(res, 403, jsonRpcError(-32000, 'Forbidden: requests from this Origin are not allowed'));
    }
    const path = new URL(req.url ?? '/', `http://127.0.0.1:${port}`).pathname;
    if (path !== '/mcp') {
      const route = this.options.routes?.find((r) => r.matches(path));
      if (!route) return send(res, 404, jsonRpcError(-32000, `Not found: ${path}`));
      if (this.closing) return send(res, 503, jsonRpcError(-32000, 'Sandbar is shutting down'));
      return route.handle(req, res, path);
    }
    if (!bearerMatches(req.headers.authorization, this.options.token())) {
      return send(res, 401, jsonRpcError(-32001, 'Unauthorized: send "Authorization: Bearer <client token>" (the Health view or `sandbar serve` says where to find it)'), {
        'www-authenticate': 'Bearer realm="sandbar"',
      });
    }
    if (this.closing) return send(res, 503, jsonRpcError(-32000, 'Sandbar is shutting down'));

    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!known) return send(res, sessionId ? 404 : 400, jsonRpcError(-32000, sessionId ? 'Session not found' : 'Bad Request: no session ID'));
      return known.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return send(res, 405, jsonRpcError(-32000, 'Method not allowed'), { allow: 'GET, POST, DELETE' });

    let body: unknown;
    try {
      body = JSON.parse(await readBody(req, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY));
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        // Drain what the client is still sending so it can read the answer instead of a reset.
        req.resume();
        const limit = Math.round((this.options.maxBodyBytes ?? DEFAULT_MAX_BODY) / 1024);
        return send(res, 413, jsonRpcError(-32600, `Request body too large (limit ${limit} KiB)`), { connection: 'close' });
      }
      return send(res, 400, jsonRpcError(-32700, `Parse error: ${errorMessage(err)}`));
    }

    if (known) return known.transport.handleRequest(req, res, body);
    if (sessionId) return send(res, 404, jsonRpcError(-32001, 'Session not found'));
    if (!isInitializeRequest(body)) return send(res, 400, jsonRpcError(-32000, 'Bad Request: no valid session ID provided'));
    if (this.sessions.size >= (this.options.maxSessions ?? 256)) {
      return send(res, 503, jsonRpcError(-32000, 'Too many open sessions; close some and retry'));
    }
    await this.openSession(req, res, body);
  }

  private async openSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const server = this.options.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
      void server.close().catch(() => {});
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }
}
