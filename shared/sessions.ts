// Stateful sessions: several `run_python` calls on the same live interpreter and /workspace, opt-in with
// `session: "new"`. A session holds one sandbox (every hardening flag and limit kept), paused between calls,
// and is bound to the caller that opened it: the id means nothing to anybody else.

/** `run_python`'s `session` argument: absent for a single-use run, "new" to open one, or an id to continue. */
export const NEW_SESSION = 'new';

/** 128 bits of randomness, hex: what a session id looks like (anything else is `unknown` before any lookup). */
export const SESSION_ID_PATTERN = /^[0-9a-f]{32}$/;

/** `<id>@<n>` (issue 28): continue from the checkpoint right after call `n` (calls count from 1). */
const AT_CHECKPOINT = /^([0-9a-f]{32})@([1-9][0-9]{0,8})$/;

/** What `session` asks for: a new session, an id to continue, or an id and the call to step back to. */
export type SessionRequest = { kind: 'new' } | { kind: 'continue'; id: string; at?: number } | { kind: 'malformed'; checkpoint: boolean };

/** Parses `run_python`'s `session`; never looks anything up (a well-formed id may still be unknown). */
export function parseSessionRequest(text: string): SessionRequest {
  if (text === NEW_SESSION) return { kind: 'new' };
  if (SESSION_ID_PATTERN.test(text)) return { kind: 'continue', id: text };
  const at = AT_CHECKPOINT.exec(text);
  if (at) return { kind: 'continue', id: at[1]!, at: Number(at[2]) };
  return { kind: 'malformed', checkpoint: text.includes('@') };
}

/** Why a session ended, in the words the next call (and the panel) give. */
export const SESSION_END_REASONS = ['closed', 'ended-by-code', 'idle', 'max-age', 'timeout', 'memory', 'crashed', 'evicted', 'restart'] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** A live session as the panel and `sessions.list` show it. */
export interface SessionInfo {
  id: string;
  /** Who opened it: the MCP client's name, or the stdio connection. */
  client: { name: string; version: string | null };
  /** Calls made so far (the opening call counts). */
  calls: number;
  openedAt: number;
  lastCallAt: number;
  /** Epoch ms: the session ends then unless a call comes first (capped by the maximum age). */
  idleExpiresAt: number;
  /** Epoch ms: the session ends then whatever happens (`sessionMaxSec`). */
  maxExpiresAt: number;
  /** True while a call runs; paused (frozen) otherwise. */
  busy: boolean;
  /** Memory in use at the last sample, or null before the first. */
  memoryBytes: number | null;
  containerName: string | null;
  /** The calls `<id>@<n>` can return to, oldest first (issue 28). */
  checkpoints: number[];
}

/** What a call's `structuredContent` carries about its session (`session: {...}`). */
export interface SessionResultInfo {
  id: string;
  calls: number;
  idleExpiresInSec: number;
  /** The calls `<id>@<n>` can still return to, oldest first (empty when sessionCheckpoints is 0). */
  checkpoints: number[];
}

/** A history row's place in a session: the id and the call's number in it (1 for the opening call). */
export interface SessionRef {
  id: string;
  call: number;
}
