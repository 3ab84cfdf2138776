// History's view of one session: its calls among the loaded rows, and whether all of them are loaded.
// Rows come newest first and a session's first call is its oldest, so once call 1 is loaded every call
// of that session is too: paging can stop there rather than reading the whole history. Step backs (issue
// 28) are read from the numbers alone: a call numbered no higher than an earlier one stepped back, and
// discarded every earlier call from its number on. Which calls keep a checkpoint now comes from the live
// sessions: checkpoints end with their session, so an ended session's calls keep none.
import type { HistoryItem } from '../../../shared/history.js';
import type { SessionRef } from '../../../shared/sessions.js';

/** The rows the table shows: all of them, or only the calls of the session in focus (newest first, as loaded). */
export function visibleRows(rows: readonly HistoryItem[], focus: string | null): readonly HistoryItem[] {
  return focus === null ? rows : rows.filter((r) => r.session?.id === focus);
}

/** True once the call that opened `session` is among the rows (every later call is then loaded too). */
export function sessionStartLoaded(rows: readonly HistoryItem[], session: string): boolean {
  return rows.some((r) => r.session?.id === session && r.session.call === 1);
}

/** Whether the table should page further: the server has more, and (in focus) the session's start is not loaded yet. */
export function wantsMoreRows(rows: readonly HistoryItem[], nextCursor: string | null, focus: string | null): boolean {
  if (nextCursor === null) return false;
  return focus === null || !sessionStartLoaded(rows, focus);
}

let memo: { rows: readonly HistoryItem[]; focus: string | null; out: readonly HistoryItem[] } | null = null;

/** `visibleRows`, computed once per (rows, focus) so selectors return a stable array between renders. */
export function selectVisibleRows(s: { rows: readonly HistoryItem[]; sessionFocus: string | null }): readonly HistoryItem[] {
  if (memo && memo.rows === s.rows && memo.focus === s.sessionFocus) return memo.out;
  memo = { rows: s.rows, focus: s.sessionFocus, out: visibleRows(s.rows, s.sessionFocus) };
  return memo.out;
}

/** A session call's place among step backs: it came from checkpoint `from`, and/or a later step back discarded it. */
export interface SessionCallMark {
  discarded: boolean;
  /** The call whose checkpoint this call continued from, when it stepped back; else null. */
  from: number | null;
}

/**
 * Marks for the session calls among `rows` (newest first): a call is discarded when a later call of its
 * session has a number no higher (that one stepped back past it), and a call stepped back when the call
 * before it had a number no lower. Rows of a search may miss the later call: then nothing is marked.
 */
export function sessionCallMarks(rows: readonly HistoryItem[]): Map<string, SessionCallMark> {
  const marks = new Map<string, SessionCallMark>();
  const lowestLater = new Map<string, number>();
  const newer = new Map<string, { mark: SessionCallMark; call: number }>(); // per session: the next newer call
  for (const row of rows) {
    if (!row.session) continue;
    const { id, call } = row.session;
    const lowest = lowestLater.get(id);
    const mark: SessionCallMark = { discarded: lowest !== undefined && lowest <= call, from: null };
    marks.set(row.id, mark);
    const next = newer.get(id);
    if (next && next.call <= call) next.mark.from = next.call - 1;
    lowestLater.set(id, Math.min(lowest ?? call, call));
    newer.set(id, { mark, call });
  }
  return marks;
}

let marksMemo: { rows: readonly HistoryItem[]; out: Map<string, SessionCallMark> } | null = null;

/** `sessionCallMarks` once per rows array. */
export function selectSessionCallMarks(s: { rows: readonly HistoryItem[] }): Map<string, SessionCallMark> {
  if (marksMemo?.rows !== s.rows) marksMemo = { rows: s.rows, out: sessionCallMarks(s.rows) };
  return marksMemo.out;
}

/** Whether a session call's checkpoint can be returned to now: only a live session keeps any (issue 28). */
export type CallCheckpoint =
  | { kind: 'kept'; request: string }
  | { kind: 'not-kept'; kept: readonly number[] }
  | { kind: 'discarded' }
  | { kind: 'ended' };

/**
 * A call's checkpoint, from the live sessions (their `checkpoints`, which the main process keeps current). A
 * discarded call keeps none whatever the list says: its number now belongs to the call that replaced it.
 */
export function callCheckpoint(ref: SessionRef, discarded: boolean, live: readonly { id: string; checkpoints: readonly number[] }[]): CallCheckpoint {
  if (discarded) return { kind: 'discarded' };
  const session = live.find((s) => s.id === ref.id);
  if (!session) return { kind: 'ended' };
  return session.checkpoints.includes(ref.call) ? { kind: 'kept', request: `${ref.id}@${ref.call}` } : { kind: 'not-kept', kept: session.checkpoints };
}
