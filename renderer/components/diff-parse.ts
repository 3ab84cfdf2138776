// Reads a unified diff (what `clients.preview` returns) into lines with their kind and line numbers.

export type DiffLineKind = 'meta' | 'hunk' | 'add' | 'del' | 'context' | 'note';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  /** Line number in the old file (context and removed lines). */
  oldNo: number | null;
  /** Line number in the new file (context and added lines). */
  newNo: number | null;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parseUnifiedDiff(diff: string): DiffLine[] {
  const lines: DiffLine[] = [];
  const source = diff.endsWith('\n') ? diff.slice(0, -1) : diff;
  if (source === '') return lines;
  let oldNo = 0;
  let newNo = 0;
  // Lines still expected in the current hunk (from its header); outside a hunk everything is a header line.
  let oldLeft = 0;
  let newLeft = 0;
  for (const text of source.split('\n')) {
    const hunk = HUNK.exec(text);
    if (hunk && oldLeft === 0 && newLeft === 0) {
      oldNo = Number(hunk[1]);
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newNo = Number(hunk[3]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      lines.push({ kind: 'hunk', text, oldNo: null, newNo: null });
    } else if (text.startsWith('\\')) {
      lines.push({ kind: 'note', text, oldNo: null, newNo: null });
    } else if (oldLeft === 0 && newLeft === 0) {
      lines.push({ kind: 'meta', text, oldNo: null, newNo: null });
    } else if (text.startsWith('+')) {
      newLeft = Math.max(0, newLeft - 1);
      lines.push({ kind: 'add', text: text.slice(1), oldNo: null, newNo: newNo++ });
    } else if (text.startsWith('-')) {
      oldLeft = Math.max(0, oldLeft - 1);
      lines.push({ kind: 'del', text: text.slice(1), oldNo: oldNo++, newNo: null });
    } else {
      oldLeft = Math.max(0, oldLeft - 1);
      newLeft = Math.max(0, newLeft - 1);
      lines.push({ kind: 'context', text: text.startsWith(' ') ? text.slice(1) : text, oldNo: oldNo++, newNo: newNo++ });
    }
  }
  return lines;
}

export function diffStats(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === 'add') added++;
    else if (l.kind === 'del') removed++;
  }
  return { added, removed };
}
