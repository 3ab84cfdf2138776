// Who is calling, as far as Sandbar can tell: the credential the request came with, the same on every MCP
// revision and never a protocol session (2026-07-28 has none). Over HTTP every client holds the one client
// token, so the caller is that token (by fingerprint: a rotated token is a new caller); over stdio it is
// the connection, since whoever holds the pipe is the caller. Request states and sessions bind to it.
import { createHash } from 'node:crypto';

/** What the /mcp route hands both revisions' handlers as `authInfo` (1.x `extra.authInfo`, 2.x `ctx.http.authInfo`). */
export interface CallerAuth {
  /** The client token's fingerprint, never the token itself. */
  token: string;
  clientId: string;
  scopes: string[];
}

export const CLIENT_TOKEN_ID = 'client-token';

export function clientTokenAuth(token: string): CallerAuth {
  return { token: createHash('sha256').update(token).digest('hex').slice(0, 32), clientId: CLIENT_TOKEN_ID, scopes: [] };
}

/** `client-token:<fingerprint>` over HTTP, `stdio:<connection>` over stdio. */
export function callerCredential(auth: { token: string; clientId?: string } | undefined, connection: string | undefined): string {
  if (auth) return `${auth.clientId ?? CLIENT_TOKEN_ID}:${auth.token}`;
  return `stdio:${connection ?? 'unknown'}`;
}
