// What a run's egress left behind: one record per connection (and per request the host saw), as
// `executions.get` returns it, the lines a run's result text carries for refusals, and the proxy's 403 body.
// A record names a secret by its name only; its value is never in one.
import { escapeInvisible } from './display-text.js';

export type EgressDecision = 'allowed' | 'denied';

export interface EgressRecord {
  host: string;
  port: number;
  decision: EgressDecision;
  /** Why a connection was refused: `not allowed`, `denied by a rule (…)`, `private address …`, a budget. */
  reason?: string;
  /** Bytes the sandbox sent / received through this connection. */
  bytesOut: number;
  bytesIn: number;
  /** The name of the secret the host added to this request (never its value). */
  secret?: string;
  /** Where the host saw the request (plain HTTP, or HTTPS it intercepted for a secret). */
  method?: string;
  path?: string;
  status?: number;
}

/** Records kept per run; past this only the count grows, so a flood cannot grow memory or history. */
export const MAX_EGRESS_RECORDS = 500;

/** The path as recorded: without query or fragment (they may carry data the person did not mean to keep), at most 200 characters. */
export function recordedPath(target: string): string {
  const path = target.split(/[?#]/, 1)[0] ?? '';
  return path.length > 200 ? `${path.slice(0, 199)}…` : path;
}

const shownHost = (host: string) => escapeInvisible(host.includes(':') ? `[${host}]` : host);

/** The refused connections, one line each, for the run's result text. */
export function refusedLines(records: readonly EgressRecord[], dropped = 0): string[] {
  const lines = records.filter((r) => r.decision === 'denied').map((r) => `egress refused: ${shownHost(r.host)}:${r.port} (${escapeInvisible(r.reason ?? 'refused')})`);
  if (dropped > 0) lines.push(`egress: ${dropped} more connection${dropped === 1 ? '' : 's'} not recorded (at most ${MAX_EGRESS_RECORDS} per run)`);
  return lines;
}

/** The 403 body the proxy answers a refused request or CONNECT with. */
export function refusalBody(host: string, port: number, reason: string): string {
  return `sandbar: egress refused: ${shownHost(host)}:${port}: ${escapeInvisible(reason)}\n`;
}
