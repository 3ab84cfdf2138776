// How the panel names a session and its clocks: the short id both Live and History show, and the idle
// countdown. Pure, so the views and their tests agree.
import type { SessionRef } from '../../shared/sessions.js';

/** The first 8 hex digits: enough to tell the (at most a few) live sessions apart; the full id goes in a title. */
export function shortSessionId(id: string): string {
  return id.slice(0, 8);
}

/** "session 3f2a1b2c · call 2", the label a history row carries. */
export function sessionCallLabel(ref: SessionRef): string {
  return `session ${shortSessionId(ref.id)} · call ${ref.call}`;
}

/** Whole seconds left until `deadline`, never negative; rounded up so "0:00" means it is over. */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** A countdown as a clock: 9:05, 0:42, 1:00:00. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The checkpoints a session can step back to: "steps back to 3, 4, 5", or that it keeps none. */
export function checkpointsLabel(calls: readonly number[]): string {
  return calls.length === 0 ? 'no checkpoints' : `steps back to ${calls.join(', ')}`;
}

/** "1 call", "3 calls". */
export function callCount(n: number): string {
  return n === 1 ? '1 call' : `${n} calls`;
}
