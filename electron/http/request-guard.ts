// The checks every HTTP request passes before anything else happens [beyond, SPEC 3.5]: a loopback Host
// (DNS rebinding), no foreign Origin (browsers), and the bearer token, compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** `Host` must name a loopback address and our port; anything else may be a DNS-rebinding page. */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const lower = host.trim().toLowerCase();
  return LOOPBACK_NAMES.some((name) => lower === `${name}:${port}`);
}

/** The panel's own origins. MCP clients send no Origin; a browser page from anywhere else is refused. */
export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return LOOPBACK_NAMES.some((name) => origin.toLowerCase() === `http://${name}:${port}`);
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** `Authorization: Bearer <token>` only; the token is never taken from a query string or a cookie. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  // Digests have equal length whatever was sent, so the comparison time says nothing about the token.
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

export interface JsonRpcErrorBody {
  jsonrpc: '2.0';
  error: { code: number; message: string };
  id: null;
}

export function jsonRpcError(code: number, message: string): JsonRpcErrorBody {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}
