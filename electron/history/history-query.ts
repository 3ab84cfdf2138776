// The small languages of the history reader: the opaque page cursor, search text to FTS5 syntax, and
// snippets marked by SQLite turned into parts the panel can render without parsing HTML.
import { AppError } from '../../shared/errors.js';
import type { SnippetPart } from '../../shared/history.js';

export interface CursorPosition {
  queuedAt: number;
  seq: number;
}

/** Opaque to callers: the (queuedAt, seq) of the last row on the page, newest-first order. */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.queuedAt, position.seq])).toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((n) => Number.isSafeInteger(n))) {
      return { queuedAt: value[0] as number, seq: value[1] as number };
    }
  } catch {
    // Falls through to the error below.
  }
  throw new AppError('invalid_request', 'Invalid history cursor; start again from the first page');
}

/**
 * Words shorter than this match whole (`np`, `os`, `pd`, `sql`); longer ones also match as the beginning of
 * a word (`pand` finds pandas). FTS5 merges the lists of every word a prefix matches before it can return a
 * page, with the event loop held: at 100,000 runs (test/bench/history.bench.ts) a three-letter prefix
 * shared by 1 word in 16 took 240-320 ms and a two-letter one 250 ms, against 27 ms at most for four
 * letters. A prefix index (`prefix='3'`) would make three letters fast too, for +50% of the search index and
 * a rebuild of it (about 40 s at 100,000 runs) on the first start. A trailing `*` still asks for a prefix
 * of any length.
 */
export const MIN_PREFIX_CHARS = 4;

/**
 * Search text to an FTS5 query that cannot be a syntax error. Every term must occur (AND). A bare term
 * matches as a phrase of its words (`pd.read_csv` finds "pd.read_csv") whose last word may be the
 * beginning of a longer one (`matplot` finds "matplotlib", `pd.read` finds "pd.read_csv"). Text in double
 * quotes is an exact phrase; a quote left open runs to the end, its last word still a prefix (someone is
 * typing it). Quotes inside a term and FTS operators (`OR`, `NEAR(`, `-`, `:`) are plain text. Returns
 * null when nothing searchable is left.
 */
export function toFtsQuery(text: string): string | null {
  const terms: string[] = [];
  const add = (words: string, prefix: 'no' | 'auto' | 'yes') => {
    const last = /([\p{L}\p{N}]+)[^\p{L}\p{N}]*$/u.exec(words)?.[1];
    // A term of punctuation only has no tokens; FTS5 would reject the empty phrase.
    if (last === undefined) return;
    const star = prefix === 'yes' || (prefix === 'auto' && [...last].length >= MIN_PREFIX_CHARS);
    terms.push(`"${words.replace(/"/g, '""')}"${star ? '*' : ''}`);
  };
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
    } else if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      add(text.slice(i + 1, close === -1 ? text.length : close), close === -1 ? 'auto' : 'no');
      i = close === -1 ? text.length : close + 1;
    } else {
      const end = text.slice(i).search(/\s/);
      const raw = end === -1 ? text.slice(i) : text.slice(i, i + end);
      const starred = raw.length > 1 && raw.endsWith('*');
      add(raw.replace(/\*+$/, ''), starred ? 'yes' : 'auto');
      i += raw.length;
    }
  }
  return terms.length > 0 ? terms.join(' ') : null;
}

/** Control characters never printed by real runs, so a marker is never confused with output. */
export const HIT_OPEN = '\u0002';
export const HIT_CLOSE = '\u0003';
export const SNIPPET_ELLIPSIS = '…';

/** Splits `snippet()` output marked with HIT_OPEN/HIT_CLOSE into plain and matched parts. */
export function parseSnippet(marked: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const re = new RegExp(`${HIT_OPEN}([^${HIT_CLOSE}]*)${HIT_CLOSE}`, 'g');
  let last = 0;
  for (const m of marked.matchAll(re)) {
    if (m.index > last) parts.push({ text: marked.slice(last, m.index), hit: false });
    parts.push({ text: m[1]!, hit: true });
    last = m.index + m[0].length;
  }
  if (last < marked.length) parts.push({ text: marked.slice(last).replaceAll(HIT_OPEN, '').replaceAll(HIT_CLOSE, ''), hit: false });
  return parts;
}

/** Plain text with the hits bracketed, for terminals and logs: `[open]` and `[close]` by default `[`/`]`. */
export function snippetText(parts: readonly SnippetPart[], open = '[', close = ']'): string {
  return parts.map((p) => (p.hit ? `${open}${p.text}${close}` : p.text)).join('');
}
