// The host's egress proxy for one run. Connections from the sandbox arrive as streams (carried over the
// agent's channel; in tests, loopback sockets) and are parsed by Node's own HTTP server, never by hand:
// plain HTTP requests (absolute-form) are forwarded, CONNECT is tunnelled to the address the policy checked.
// Every request or tunnel takes a lease from the run's budget and leaves one audit record; a refusal is a
// 403 whose body begins `sandbar: egress refused:`. A secret's header is added here, only for its hosts.
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { recordedPath, refusalBody, type EgressRecord } from '../../shared/egress-audit.js';
import { EGRESS_IDLE_MS, type EgressBudget, type Lease } from './egress-budget.js';
import { forward, forwardable } from './egress-forward.js';
import type { EgressPolicy, Resolver } from './egress-policy.js';
import { mayInjectOverPlainHttp, secretFor, withSecretHeader, type ResolvedSecret } from './egress-secrets.js';

export interface EgressProxyOptions {
  policy: EgressPolicy;
  budget: EgressBudget;
  secrets: readonly ResolvedSecret[];
  resolve: Resolver;
  idleMs?: number;
  /** Signs a leaf per host, so HTTPS to a host with a secret can be terminated here (egress-ca.ts). Absent: no interception. */
  ca?: { contextFor(host: string): Promise<tls.SecureContext> };
  /** CAs an intercepted upstream is verified against: the system's plus `egressCaFile` (default: the system's). */
  upstreamCa?: readonly string[];
}

/** HOST:PORT of a CONNECT target or an absolute URL; IPv6 without its brackets. */
function target(authority: string, defaultPort: number): { host: string; port: number } | undefined {
  try {
    const url = new URL(`http://${authority}`);
    if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '')) return undefined;
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port === '' ? defaultPort : Number(url.port) };
  } catch {
    return undefined;
  }
}

/**
 * Answers a CONNECT that goes no further and closes the connection both ways once the answer is out: a
 * sandbox that never closes its end must not keep a refused connection (and its slot) open.
 */
function answerAndClose(client: Duplex, answer: string): void {
  client.end(answer, () => client.destroy());
}

export class EgressProxy {
  readonly #options: EgressProxyOptions;
  readonly #server: http.Server;
  readonly #sockets = new Set<Duplex>();

  constructor(options: EgressProxyOptions) {
    this.#options = options;
    // Small header limit and timeouts: the sandbox is untrusted and each connection holds host memory.
    this.#server = http.createServer({ maxHeaderSize: 16 * 1024, requestTimeout: 60_000, headersTimeout: 30_000 });
    this.#server.on('request', (req, res) => void this.#request(req, res));
    this.#server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void this.#connect(req, socket, head));
    this.#server.on('clientError', (_err, socket: Duplex) => socket.destroy());
  }

  /** One connection from the sandbox to the proxy. */
  accept(socket: Duplex): void {
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
    this.#server.emit('connection', socket);
  }

  /** Ends every connection (the run ended). */
  close(): void {
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }

  async #admit(host: string, port: number): Promise<{ lease: Lease; address: string; host: string } | { refused: string; host: string }> {
    const lease = this.#options.budget.open();
    if ('refused' in lease) return { refused: lease.refused, host };
    const decision = await this.#options.policy.decide(host, port, this.#options.resolve);
    if (decision.decision === 'denied') {
      lease.release();
      return { refused: decision.reason, host: decision.host };
    }
    return { lease, address: decision.address, host: decision.host };
  }

  #refuse(host: string, port: number, reason: string, extra: Partial<EgressRecord> = {}): string {
    this.#options.budget.record({ host, port, decision: 'denied', reason, bytesOut: 0, bytesIn: 0, ...extra });
    return refusalBody(host, port, reason);
  }

  async #request(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = /^http:\/\/([^/?#]+)(.*)$/i.exec(req.url ?? '');
    const where = url ? target(url[1]!, 80) : undefined;
    if (!url || !where) {
      res.writeHead(400, { 'Content-Type': 'text/plain', Connection: 'close' }).end('sandbar: egress: send requests as http://host/path through the proxy, or CONNECT for https\n');
      return;
    }
    const path = url[2] === '' ? '/' : url[2]!;
    const method = req.method ?? 'GET';
    const admitted = await this.#admit(where.host, where.port);
    if ('refused' in admitted) {
      res.writeHead(403, { 'Content-Type': 'text/plain', Connection: 'close' }).end(this.#refuse(admitted.host, where.port, admitted.refused, { method, path: recordedPath(path) }));
      return;
    }
    const { lease, address, host } = admitted;
    const secret = secretFor(this.#options.secrets, host, where.port);
    const inject = secret !== undefined && mayInjectOverPlainHttp(address);
    const headers = forwardable(req.headers);
    const record: EgressRecord = { host, port: where.port, decision: 'allowed', bytesOut: 0, bytesIn: 0, method, path: recordedPath(path), ...(inject ? { secret: secret.name } : {}) };
    const to = { host, port: where.port, address, ...(this.#options.idleMs ? { idleMs: this.#options.idleMs } : {}) };
    forward(req, res, to, { path, headers: inject ? withSecretHeader(headers, secret) : headers }, lease, record, (done) => {
      lease.release();
      this.#options.budget.record(done);
    });
  }

  async #connect(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const where = target(req.url ?? '', 443);
    if (!where) {
      answerAndClose(client, 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const admitted = await this.#admit(where.host, where.port);
    if ('refused' in admitted) {
      const body = this.#refuse(admitted.host, where.port, admitted.refused, { method: 'CONNECT' });
      answerAndClose(client, `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return;
    }
    const { lease, address, host } = admitted;
    const secret = secretFor(this.#options.secrets, host, where.port);
    if (secret && this.#options.ca) return this.#intercept(client, head, { host, port: where.port, address }, lease, secret);
    let done = false;
    const upstream = net.connect({ host: address, port: where.port });
    const finish = () => {
      if (done) return;
      done = true;
      upstream.destroy();
      client.destroy();
      lease.release();
      this.#options.budget.record({ host, port: where.port, decision: 'allowed', method: 'CONNECT', bytesOut: lease.bytesOut, bytesIn: lease.bytesIn });
    };
    upstream.setTimeout(this.#options.idleMs ?? EGRESS_IDLE_MS, finish);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0 && lease.add('out', head.length)) upstream.write(head);
      client.on('data', (chunk: Buffer) => {
        if (!lease.add('out', chunk.length)) finish();
      });
      upstream.on('data', (chunk: Buffer) => {
        if (!lease.add('in', chunk.length)) finish();
      });
      client.pipe(upstream);
      upstream.pipe(client);
    });
    // `on`, not `once`: a second error on a socket nobody listens to would end the whole app.
    upstream.on('error', () => {
      if (connected) return finish();
      // Not reached: say so to the client before the connection goes (finish would cut the answer off).
      done = true;
      lease.release();
      this.#options.budget.record({ host, port: where.port, decision: 'allowed', method: 'CONNECT', status: 502, bytesOut: 0, bytesIn: 0 });
      answerAndClose(client, 'HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    upstream.once('close', finish);
    client.once('close', finish);
    client.on('error', finish);
  }

  /**
   * HTTPS to a host with a secret: the proxy answers the CONNECT, presents a leaf from the instance's CA
   * (which the sandbox trusts), and forwards each request over verified TLS with the secret's header. Hosts
   * without a secret never come here: they are tunnelled, their TLS untouched.
   */
  async #intercept(client: Duplex, head: Buffer, to: { host: string; port: number; address: string }, lease: Lease, secret: ResolvedSecret): Promise<void> {
    let context: tls.SecureContext;
    try {
      context = await this.#options.ca!.contextFor(to.host);
    } catch {
      lease.release();
      answerAndClose(client, 'HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) client.unshift(head);
    const secure = new tls.TLSSocket(client, { isServer: true, secureContext: context });
    const inner = http.createServer({ maxHeaderSize: 16 * 1024, requestTimeout: 60_000, headersTimeout: 30_000 });
    const upstream = { ...to, tlsCa: this.#options.upstreamCa ?? tls.rootCertificates, ...(this.#options.idleMs ? { idleMs: this.#options.idleMs } : {}) };
    // The Host the upstream sees is the one the CONNECT was checked for, whatever the code wrote.
    const hostHeader = to.port === 443 ? to.host : `${to.host.includes(':') ? `[${to.host}]` : to.host}:${to.port}`;
    inner.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const path = req.url?.startsWith('/') ? req.url : '/';
      const record: EgressRecord = { host: to.host, port: to.port, decision: 'allowed', bytesOut: 0, bytesIn: 0, method: req.method ?? 'GET', path: recordedPath(path), secret: secret.name };
      const headers = { ...withSecretHeader(forwardable(req.headers), secret), host: hostHeader };
      forward(req, res, upstream, { path, headers }, lease, record, (done) => this.#options.budget.record(done));
    });
    inner.on('clientError', (_err, socket: Duplex) => socket.destroy());
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      lease.release();
      secure.destroy();
      client.destroy();
    };
    secure.on('error', release);
    secure.on('close', release);
    client.on('error', release);
    client.on('close', release);
    secure.setTimeout(this.#options.idleMs ?? EGRESS_IDLE_MS, release);
    inner.emit('connection', secure);
  }
}
