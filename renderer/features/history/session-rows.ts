// History's view of one session: its calls among the loaded rows, and whether all of them are loaded.
// Rows come newest first and a session's first call is its oldest, so once call 1 is loaded every call
// of that session is too: paging can stop there rather than reading the whole history.
import type { HistoryItem } from '../../../shared/history.js';

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
