// Draws a change's hunks as the server sent them (diff's structuredPatch, tokens masked): line numbers on
// both sides, added and removed lines marked, and the totals in the caption.
import { useMemo } from 'react';
import type { DiffHunk } from '../../shared/contract.js';

type RowKind = 'hunk' | 'add' | 'del' | 'context' | 'note';

interface Row {
  kind: RowKind;
  text: string;
  oldNo: number | null;
  newNo: number | null;
}

const lines = (n: number) => (n === 1 ? '1 line' : `${n} lines`);

const SIGN: Record<RowKind, string> = { add: '+', del: '−', context: ' ', hunk: '', note: '' };

/** Pure: the rows of the hunks, each with its line numbers. */
export function diffRows(hunks: readonly DiffHunk[]): Row[] {
  const rows: Row[] = [];
  for (const hunk of hunks) {
    rows.push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, oldNo: null, newNo: null });
    let oldNo = hunk.oldStart;
    let newNo = hunk.newStart;
    for (const line of hunk.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === '+') rows.push({ kind: 'add', text, oldNo: null, newNo: newNo++ });
      else if (mark === '-') rows.push({ kind: 'del', text, oldNo: oldNo++, newNo: null });
      else if (mark === '\\') rows.push({ kind: 'note', text: line, oldNo: null, newNo: null });
      else rows.push({ kind: 'context', text, oldNo: oldNo++, newNo: newNo++ });
    }
  }
  return rows;
}

export function DiffView({ diff, label }: { diff: readonly DiffHunk[]; label: string }) {
  const rows = useMemo(() => diffRows(diff), [diff]);
  const added = rows.filter((r) => r.kind === 'add').length;
  const removed = rows.filter((r) => r.kind === 'del').length;
  if (rows.length === 0) return <p className="muted">No changes.</p>;
  return (
    <figure className="diff">
      <figcaption className="diff-caption">
        {label} <span className="diff-added">+{added}</span> <span className="diff-removed">−{removed}</span>
      </figcaption>
      <div className="diff-body" role="table" aria-label={`${label}: ${lines(added)} added, ${lines(removed)} removed`}>
        {rows.map((line, i) => (
          <div key={i} className={`diff-line diff-${line.kind}`} role="row">
            <span className="diff-no" role="cell" aria-hidden="true">
              {line.oldNo ?? ''}
            </span>
            <span className="diff-no" role="cell" aria-hidden="true">
              {line.newNo ?? ''}
            </span>
            <span className="diff-text" role="cell">
              <span className="diff-sign" aria-label={line.kind === 'add' ? 'added' : line.kind === 'del' ? 'removed' : undefined}>
                {SIGN[line.kind]}
              </span>
              {line.text}
            </span>
          </div>
        ))}
      </div>
    </figure>
  );
}
