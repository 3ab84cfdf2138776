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
 * Search text to an FTS5 query that cannot be a syntax error: every whitespace-separated term must occur
 * (AND), each is matched as a phrase of its words (so `os.path` finds "os.path"), and a term ending in `*`
 * matches as a prefix. Returns null when nothing searchable is left.
 */
export function toFtsQuery(text: string): string | null {
  const terms: string[] = [];
  for (const raw of text.split(/\s+/)) {
    const prefix = raw.length > 1 && raw.endsWith('*');
    const term = (prefix ? raw.slice(0, -1) : raw).replace(/"/g, '""');
    // A term of punctuation only has no tokens; FTS5 would reject the empty phrase.
    if (!/[\p{L}\p{N}]/u.test(term)) continue;
    terms.push(`"${term}"${prefix ? '*' : ''}`);
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
