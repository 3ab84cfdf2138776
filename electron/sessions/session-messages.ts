// What a session call says when it cannot go on: every refusal and every end in words, each naming the
// session and saying `expired` or `unknown` where the id no longer works (clients and tests look for them).
import type { SessionEndReason } from '../../shared/sessions.js';

/** Why a session ended, as a clause after "session <id> expired: ". */
export function endedBecause(reason: SessionEndReason, detail: string | undefined, settings: { idleSec: number; maxSec: number }): string {
  switch (reason) {
    case 'closed':
      return 'it was ended from the panel (or the control API)';
    case 'ended-by-code':
      return 'the code ended it with runtime.end_session()';
    case 'idle':
      return `no call came for ${settings.idleSec}s (sessionIdleSec)`;
    case 'max-age':
      return `it reached its maximum age of ${settings.maxSec}s (sessionMaxSec)`;
    case 'timeout':
    case 'memory':
    case 'crashed':
      return detail ?? 'its sandbox stopped';
    case 'evicted':
      return 'a newer session took its place';
    case 'restart':
      return 'Sandbar restarted, and a restart ends every session';
  }
}

export function expiredMessage(id: string, why: string): string {
  return `session ${id} expired: ${why}. Its variables and /workspace are gone; pass session: "new" to open another.`;
}

export function unknownMessage(id: string): string {
  return `session ${id} is unknown: no session with this id was opened by this client (ids only work for the credential or connection that opened them). Pass session: "new" to open one.`;
}

export function malformedMessage(): string {
  return 'session is unknown: pass "new" to open a session, or the id a session call returned (32 hex characters).';
}

export function busyMessage(id: string, call: number): string {
  return `session ${id} is busy: its call ${call} is still running (a session runs one call at a time). Wait for it, then call again.`;
}

/** The cap is a refusal, never an eviction: ending another caller's session would destroy work nobody asked to end. */
export function capMessage(max: number, yours: { id: string; calls: number; idleSec: number }[], others: number): string {
  if (max === 0) return 'session refused: sessions are turned off here (maxSessions is 0). Run without session.';
  const listed = yours.map((s) => `${s.id} (${s.calls} call${s.calls === 1 ? '' : 's'}, idle ${s.idleSec}s)`).join(', ');
  const mine = yours.length > 0 ? ` Yours: ${listed}.` : '';
  const theirs = others > 0 ? ` ${others} belong${others === 1 ? 's' : ''} to other clients.` : '';
  return `session refused: ${max} session${max === 1 ? ' is' : 's are'} live, the most Sandbar keeps (maxSessions); a new one is refused rather than ending another.${mine}${theirs} End one with runtime.end_session() in a call to it, from the panel, or wait for one to expire.`;
}

export function unsupportedMessage(backend: string): string {
  return `session is not available with the ${backend} runtime: sessions pause their sandbox between calls, and ${backend} cannot pause one. Run without session, or use a runtime that can (Podman or Docker).`;
}

/** A call ended the session it ran in: the detail kept for the next call (the result says it too). */
export function callEndDetail(call: number, exitReason: string, message: string | undefined, memory: string): string {
  if (exitReason === 'memory') return `its call ${call} was killed: memory limit ${memory} reached`;
  if (exitReason === 'timeout') return `its call ${call} timed out (${message ?? 'timeout'}), which ends the session`;
  if (exitReason === 'cancelled') return `its call ${call} was cancelled, which ends the session`;
  if (exitReason === 'output_limit' || exitReason === 'protocol_abuse') return `its call ${call} was stopped: ${message ?? exitReason.replace('_', ' ')}`;
  return `its sandbox stopped during call ${call}${message ? ` (${message})` : ''}`;
}

/** `<id>@<n>` where no checkpoint of call n is kept: why, and the calls that can still be returned to. */
export function checkpointMessage(id: string, at: number, state: { calls: number; kept: readonly number[]; keep: number; unavailable?: string | null }): string {
  if (state.unavailable) {
    return `session ${id} has no checkpoint of call ${at}: this sandbox cannot keep checkpoints (${state.unavailable}), so no call can be returned to. Continue with the id alone.`;
  }
  if (state.keep === 0) {
    return `session ${id} has no checkpoint of call ${at}: checkpoints are off here (sessionCheckpoints is 0), so no call can be returned to. Continue with the id alone.`;
  }
  const why = at > state.calls ? `call ${at} was never made (the session has made ${state.calls})` : `the checkpoint of call ${at} is no longer kept (at most ${state.keep} are kept, sessionCheckpoints; a step back discards the calls after it)`;
  const left = state.kept.length > 0 ? `Calls that can still be returned to: ${state.kept.join(', ')} (e.g. "${id}@${state.kept[state.kept.length - 1]}").` : 'No call can be returned to now.';
  return `session ${id} has no checkpoint of call ${at}: ${why}. ${left} Nothing changed; the session is as its call ${state.calls} left it.`;
}
