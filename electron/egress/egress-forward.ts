// One request forwarded upstream by the egress proxy, over plain HTTP or (for a host with a secret) HTTPS
// after the proxy terminated the sandbox's TLS: to the checked address only, hop-by-hop headers dropped,
// bytes counted against the run's lease both ways, one audit record when it ends. Upstream HTTPS is verified
// against the system CAs plus `egressCaFile` for the name the sandbox asked for.
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { canonicalAddress } from '../../shared/egress.js';
import type { EgressRecord } from '../../shared/egress-audit.js';
import { EGRESS_IDLE_MS, type Lease } from './egress-budget.js';

// Hop-by-hop headers (RFC 9110 7.6.1) and the proxy's own: never forwarded either way.
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export function forwardable(headers: http.IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(headers)) if (value !== undefined && !HOP.has(key.toLowerCase())) out[key] = value;
  return out;
}

export interface Upstream {
  host: string;
  port: number;
  address: string;
  /** Present: HTTPS to the upstream, verified against these CAs. */
  tlsCa?: readonly string[];
  idleMs?: number;
}

/**
 * Sends `req` (headers already decided) to the upstream and its answer to `res`. `done` gets the record once,
 * with this request's bytes, however it ended.
 */
export function forward(req: http.IncomingMessage, res: http.ServerResponse, to: Upstream, request: { path: string; headers: Record<string, string | string[]> }, lease: Lease, record: EgressRecord, done: (record: EgressRecord) => void): void {
  const start = { out: lease.bytesOut, in: lease.bytesIn };
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done({ ...record, bytesOut: lease.bytesOut - start.out, bytesIn: lease.bytesIn - start.in });
  };
  const options = { host: to.address, port: to.port, method: req.method ?? 'GET', path: request.path, headers: request.headers, setHost: false, agent: false as const };
  const upstream = to.tlsCa
    ? // The upstream must prove the name the sandbox asked for (the connection went to the checked address).
      https.request({ ...options, ca: [...to.tlsCa], ...(canonicalAddress(to.host) === undefined ? { servername: to.host } : {}), checkServerIdentity: (_h: string, cert: tls.PeerCertificate) => tls.checkServerIdentity(to.host, cert) })
    : http.request(options);
  upstream.setTimeout(to.idleMs ?? EGRESS_IDLE_MS, () => upstream.destroy(new Error('idle')));
  req.on('data', (chunk: Buffer) => {
    if (!lease.add('out', chunk.length)) upstream.destroy(new Error('budget'));
  });
  req.pipe(upstream);
  upstream.on('response', (upRes) => {
    record.status = upRes.statusCode;
    res.writeHead(upRes.statusCode ?? 502, forwardable(upRes.headers));
    upRes.on('data', (chunk: Buffer) => {
      if (!lease.add('in', chunk.length)) {
        upstream.destroy();
        res.destroy();
      }
    });
    upRes.pipe(res);
    upRes.on('end', finish);
    upRes.on('error', finish);
  });
  upstream.on('error', (err) => {
    const why = err.message === 'budget' ? "the run's egress bytes are spent" : (err as NodeJS.ErrnoException).code?.startsWith('ERR_TLS') || /certificate|self.signed/i.test(err.message) ? 'its certificate was not trusted' : 'connection failed';
    if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain', Connection: 'close' }).end(`sandbar: egress: ${to.host}:${to.port} did not answer (${why})\n`);
    else res.destroy();
    record.status ??= 502;
    finish();
  });
  // The sandbox's side went (the run ended, or the code hung up) before the answer was through: the
  // upstream request goes too, rather than holding a socket until its idle timeout.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
    finish();
  });
}
