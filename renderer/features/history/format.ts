// History-specific formatting on top of the panel's shared helpers (renderer/lib/format.ts).
import { displayLine, displayText } from '../../../shared/display-text.js';
import { formatDuration } from '../../lib/format.js';

const rowTime = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Short enough for a table cell, in the user's locale ("Mar 4, 14:05:09" in en-US). */
export function formatRowTime(epochMs: number): string {
  return rowTime.format(epochMs);
}

/** A duration that may not exist (the run never started). */
export function formatMaybeDuration(ms: number | null): string {
  return ms === null ? '—' : formatDuration(ms);
}

/** Any run of whitespace (newlines included) as one space, so code fits one table line; sanitised, not trimmed (snippet parts join up). */
export function oneLine(text: string): string {
  return displayText(text, { multiline: true }).replace(/\s+/g, ' ');
}

/**
 * Characters of code a table cell gets: more than the widest cell shows (the rest is cut with an ellipsis
 * by CSS), and no more, because shaping text nobody sees is most of the cost of a new row while scrolling.
 */
export const EXCERPT_CHARS = 160;

export function codeExcerpt(preview: string): string {
  return displayLine(preview, EXCERPT_CHARS + 1);
}
