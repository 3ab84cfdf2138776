// A session among the History view's loaded rows (renderer/features/history/session-rows.ts): focus, completeness, paging.
import { describe, expect, it } from 'vitest';
import { selectSessionCallMarks, selectVisibleRows, sessionCallMarks, sessionStartLoaded, visibleRows, wantsMoreRows } from '../../../../renderer/features/history/session-rows.js';
import { makeItems } from './fake-history-api.js';

const S = 'a'.repeat(32);
const rows = makeItems(6).map((r, k) => (k === 1 ? { ...r, session: { id: S, call: 2 } } : k === 4 ? { ...r, session: { id: S, call: 1 } } : r));

describe('a session among the loaded rows', () => {
  it('shows every row without a focus, and only the session’s calls (in listing order) with one', () => {
    expect(visibleRows(rows, null)).toBe(rows);
    expect(visibleRows(rows, S).map((r) => r.id)).toEqual(['run-1', 'run-4']);
    expect(visibleRows(rows, 'b'.repeat(32))).toEqual([]);
  });

  it('knows the session is complete once its first call is loaded', () => {
    expect(sessionStartLoaded(rows, S)).toBe(true);
    expect(sessionStartLoaded(rows.slice(0, 4), S)).toBe(false);
  });

  it('pages on while the server has more and, in a focus, until the first call is loaded', () => {
    expect(wantsMoreRows(rows, null, null)).toBe(false);
    expect(wantsMoreRows(rows, 'c', null)).toBe(true);
    expect(wantsMoreRows(rows.slice(0, 4), 'c', S)).toBe(true);
    expect(wantsMoreRows(rows, 'c', S)).toBe(false);
    expect(wantsMoreRows(rows.slice(0, 4), null, S)).toBe(false);
  });

  it('returns the same array for the same rows and focus, so a selector does not re-render for nothing', () => {
    const first = selectVisibleRows({ rows, sessionFocus: S });
    expect(selectVisibleRows({ rows, sessionFocus: S })).toBe(first);
    expect(selectVisibleRows({ rows, sessionFocus: null })).toBe(rows);
    expect(selectVisibleRows({ rows: [...rows], sessionFocus: S })).not.toBe(first);
  });

  it('reads step backs from the numbers: later calls numbered no higher discard earlier ones, and say where they came from', () => {
    // Oldest first: 1, 2, 3, then @1 (a new 2), then 3 again, then @2 (a new 3). Listed newest first.
    const calls = [1, 2, 3, 2, 3, 3];
    const listed = makeItems(6)
      .map((r, k) => ({ ...r, session: { id: S, call: calls[k]! } }))
      .reverse();
    const marks = sessionCallMarks(listed);
    const byCall = listed.map((r) => [r.session!.call, marks.get(r.id)!.discarded, marks.get(r.id)!.from]);
    expect(byCall).toEqual([
      [3, false, 2],
      [3, true, null],
      [2, false, 1],
      [3, true, null],
      [2, true, null],
      [1, false, null],
    ]);
    expect(selectSessionCallMarks({ rows: listed })).toBe(selectSessionCallMarks({ rows: listed }));
    expect(sessionCallMarks(rows).get('run-1')).toEqual({ discarded: false, from: null });
  });
});
