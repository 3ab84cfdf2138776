// The app's one HTTP listener: 127.0.0.1 only, every request checked for a loopback Host (DNS rebinding)
// and no foreign Origin (browsers) before any route sees it, then handed to the first route that claims
// its path. Routes (MCP at /mcp, the control API at /api, the panel's files) check their own token.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError, errorMessage } from '../../shared/errors.js';
import type { Logger } from '../logger.js';
import { isAllowedOrigin, isLoopbackHost, jsonRpcError } from './request-guard.js';

export interface HttpRoute {
  matches(path: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /** The listener moved or closes: end whatever belongs to the old connections (MCP sessions). */
  reset?(): Promise<void>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export class HttpListener {
  private http: Server | undefined;
  private boundPort = 0;
  private closing = false;

  /** `routes` is read per request: the product adds the control API's routes after the listener exists. */
  constructor(private readonly options: { port: number; log: Logger; routes: () => readonly HttpRoute[] }) {}

  get port(): number {
    return this.boundPort;
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
   * old one serving and the error says why. What belongs to the old connections ends with it.
   */
  async relisten(port: number, beforeClosingOld?: () => Promise<void> | void): Promise<void> {
    const next = await this.listen(port);
    const old = this.http;
    this.http = next;
    this.boundPort = (next.address() as AddressInfo).port;
    // Streams on the old listener can still be told where to go (the panel follows the move).
    await beforeClosingOld?.();
    await Promise.allSettled(this.options.routes().map((r) => r.reset?.()));
    if (old) {
      const closed = new Promise<void>((resolve) => old.close(() => resolve()));
      old.closeAllConnections();
      await closed;
    }
  }

  /** New requests get 503 from now on; open streams stay so in-flight answers still reach clients. */
  stopAccepting(): void {
    this.closing = true;
  }

  async close(): Promise<void> {
    this.closing = true;
    const closed = new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
    await Promise.allSettled(this.options.routes().map((r) => r.reset?.()));
    this.http?.closeAllConnections();
    await closed;
  }

  private async listen(port: number): Promise<Server> {
    const http = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        this.options.log.error(`HTTP request failed: ${errorMessage(err)}`);
        sendJson(res, 500, jsonRpcError(-32603, 'Internal error'));
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
      // Loopback only: the listener is never reachable from another machine.
      http.listen(port, '127.0.0.1', () => resolve());
    });
    return http;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const port = this.boundPort;
    if (!isLoopbackHost(req.headers.host, port)) {
      return sendJson(res, 403, jsonRpcError(-32000, 'Forbidden: the Host header must be a loopback address'));
    }
    if (!isAllowedOrigin(req.headers.origin, port)) {
      return sendJson(res, 403, jsonRpcError(-32000, 'Forbidden: requests from this Origin are not allowed'));
    }
    const path = new URL(req.url ?? '/', `http://127.0.0.1:${port}`).pathname;
    const route = this.options.routes().find((r) => r.matches(path));
    if (!route) return sendJson(res, 404, jsonRpcError(-32000, `Not found: ${path}`));
    if (this.closing) return sendJson(res, 503, jsonRpcError(-32000, 'Sandbar is shutting down'));
    return route.handle(req, res, path);
  }
}
