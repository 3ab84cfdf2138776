// MCP over Streamable HTTP: the /mcp route (bearer client token, one MCP server per session, sessions
// cleaned on close) on the app's one loopback listener (http/http-listener.ts), beside any other routes.
// Revision 2026-07-28 (stateless, no sessions) is served on the same route behind the same guard
// (modern-http.ts); 2025-11-25 and older are served here exactly as before.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { errorMessage } from '../../shared/errors.js';
import { HttpListener, sendJson, type HttpRoute } from '../http/http-listener.js';
import { bearerMatches, jsonRpcError } from '../http/request-guard.js';
import type { Logger } from '../logger.js';
import { clientTokenAuth } from './caller.js';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, HttpSessions } from './http-sessions.js';
import { ModernMcpHttp } from './modern-http.js';
import type { Server as ModernServer } from '@modelcontextprotocol/server';

export type { HttpRoute as ExtraRoute } from '../http/http-listener.js';

export interface HttpEndpointOptions {
  port: number;
  /** The client token, read per request so a rotated token applies at once. */
  token: () => string;
  createServer: () => McpServer;
  /** The 2026-07-28 server, one per request; without it only 2025-11-25 and older are served. */
  createModernServer?: () => ModernServer;
  log: Logger;
  maxBodyBytes?: number;
  /** 2025-11-25 sessions kept at once (default 256): at the cap the least recently used idle one goes. */
  maxSessions?: number;
  /** An idle 2025-11-25 session closes after this long (default 30 minutes). */
  sessionIdleMs?: number;
  /** More routes on the same listener (the control API, the panel's files). */
  routes?: HttpRoute[];
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

class BodyTooLarge extends Error {}

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

/** The /mcp route: every request is checked for the client token before it can open a session. */
export class McpHttpRoute implements HttpRoute {
  private readonly sessions: HttpSessions<Session>;
  private readonly modern: ModernMcpHttp | undefined;

  constructor(private readonly options: Omit<HttpEndpointOptions, 'port' | 'routes'>) {
    this.sessions = new HttpSessions({ maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS, idleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS });
    const { createModernServer } = options;
    this.modern = createModernServer
      ? new ModernMcpHttp({ createServer: createModernServer, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY, log: options.log })
      : undefined;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  matches(path: string): boolean {
    return path === '/mcp';
  }

  /** Sessions belong to the connections they came on: a moved or closing listener ends them. */
  async reset(): Promise<void> {
    await Promise.allSettled([this.sessions.closeAll(), this.modern?.reset()]);
  }

  async handle(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse): Promise<void> {
    const token = this.options.token();
    if (!bearerMatches(req.headers.authorization, token)) {
      return sendJson(res, 401, jsonRpcError(-32001, 'Unauthorized: send "Authorization: Bearer <client token>" (the Health view or `npm run serve` says where to find it)'), {
        'www-authenticate': 'Bearer realm="sandbar"',
      });
    }
    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
    // While this response is open (a request in flight, a GET stream), its session is busy: never evicted.
    if (known) this.sessions.track(sessionId as string, res);
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!known) return sendJson(res, sessionId ? 404 : 400, jsonRpcError(-32000, sessionId ? 'Session not found' : 'Bad Request: no session ID'));
      return known.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return sendJson(res, 405, jsonRpcError(-32000, 'Method not allowed'), { allow: 'GET, POST, DELETE' });

    const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    let raw: string;
    let body: unknown;
    try {
      raw = await readBody(req, limit);
      body = JSON.parse(raw);
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        // Drain what the client is still sending so it can read the answer instead of a reset.
        req.resume();
        return sendJson(res, 413, jsonRpcError(-32600, `Request body too large (limit ${Math.round(limit / 1024)} KiB)`), { connection: 'close' });
      }
      return sendJson(res, 400, jsonRpcError(-32700, `Parse error: ${errorMessage(err)}`));
    }
    // The caller, as both revisions' handlers see it (`extra.authInfo` here, `ctx.http.authInfo` there).
    const auth = clientTokenAuth(token);
    if (this.modern && (await this.modern.claims(req, body))) return this.modern.serve(req, res, raw, body, auth);
    req.auth = auth;

    if (known) return known.transport.handleRequest(req, res, body);
    if (sessionId) return sendJson(res, 404, jsonRpcError(-32001, 'Session not found'));
    if (!isInitializeRequest(body)) return sendJson(res, 400, jsonRpcError(-32000, 'Bad Request: no valid session ID provided'));
    if (!this.sessions.makeRoom()) {
      return sendJson(res, 503, jsonRpcError(-32000, 'Every session is busy (a request in flight or a stream open in each); retry when one finishes'));
    }
    await this.openSession(req, res, body);
  }

  private async openSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const server = this.options.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.add(id, { transport, server, close: () => transport.close() });
        this.sessions.track(id, res);
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

/** The MCP route and any others on one listener: what `serve` and the desktop app run. */
export class HttpEndpoint {
  private readonly mcp: McpHttpRoute;
  private readonly listener: HttpListener;

  constructor(options: HttpEndpointOptions) {
    this.mcp = new McpHttpRoute(options);
    const extra = options.routes ?? [];
    this.listener = new HttpListener({ port: options.port, log: options.log, routes: () => [this.mcp, ...extra] });
  }

  get port(): number {
    return this.listener.port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.listener.port}/mcp`;
  }

  get sessionCount(): number {
    return this.mcp.sessionCount;
  }

  get listening(): boolean {
    return this.listener.listening;
  }

  start(): Promise<void> {
    return this.listener.start();
  }

  relisten(port: number, beforeClosingOld?: () => Promise<void> | void): Promise<void> {
    return this.listener.relisten(port, beforeClosingOld);
  }

  stopAccepting(): void {
    this.listener.stopAccepting();
  }

  close(): Promise<void> {
    return this.listener.close();
  }
}
