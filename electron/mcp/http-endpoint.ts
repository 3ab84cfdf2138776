// MCP over Streamable HTTP: the /mcp route (bearer client token, one MCP server per session, sessions
// cleaned on close) on the app's one loopback listener (http/http-listener.ts), beside any other routes.
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

export type { HttpRoute as ExtraRoute } from '../http/http-listener.js';

export interface HttpEndpointOptions {
  port: number;
  /** The client token, read per request so a rotated token applies at once. */
  token: () => string;
  createServer: () => McpServer;
  log: Logger;
  maxBodyBytes?: number;
  maxSessions?: number;
  /** More routes on the same listener (the control API, the panel's files). */
  routes?: HttpRoute[];
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
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
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly options: Omit<HttpEndpointOptions, 'port' | 'routes'>) {}

  get sessionCount(): number {
    return this.sessions.size;
  }

  matches(path: string): boolean {
    return path === '/mcp';
  }

  /** Sessions belong to the connections they came on: a moved or closing listener ends them. */
  async reset(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(sessions.map((s) => s.transport.close()));
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!bearerMatches(req.headers.authorization, this.options.token())) {
      return sendJson(res, 401, jsonRpcError(-32001, 'Unauthorized: send "Authorization: Bearer <client token>" (the Health view or `sandbar serve` says where to find it)'), {
        'www-authenticate': 'Bearer realm="sandbar"',
      });
    }
    // The credential travels with each request to the tool handler (as the SDK's authInfo): stateful
    // `run_python` sessions are bound to it, not to the MCP session.
    (req as IncomingMessage & { auth?: AuthInfo }).auth = { token: this.options.token(), clientId: 'client-token', scopes: [] };
    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!known) return sendJson(res, sessionId ? 404 : 400, jsonRpcError(-32000, sessionId ? 'Session not found' : 'Bad Request: no session ID'));
      return known.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return sendJson(res, 405, jsonRpcError(-32000, 'Method not allowed'), { allow: 'GET, POST, DELETE' });

    const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req, limit));
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        // Drain what the client is still sending so it can read the answer instead of a reset.
        req.resume();
        return sendJson(res, 413, jsonRpcError(-32600, `Request body too large (limit ${Math.round(limit / 1024)} KiB)`), { connection: 'close' });
      }
      return sendJson(res, 400, jsonRpcError(-32700, `Parse error: ${errorMessage(err)}`));
    }

    if (known) return known.transport.handleRequest(req, res, body);
    if (sessionId) return sendJson(res, 404, jsonRpcError(-32001, 'Session not found'));
    if (!isInitializeRequest(body)) return sendJson(res, 400, jsonRpcError(-32000, 'Bad Request: no valid session ID provided'));
    if (this.sessions.size >= (this.options.maxSessions ?? 256)) {
      return sendJson(res, 503, jsonRpcError(-32000, 'Too many open sessions; close some and retry'));
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
