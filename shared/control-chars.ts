// Control characters in text that came from a sandbox or a person: refused in queries, stripped before a
// terminal sees them (an escape sequence in recorded output must not drive the user's terminal).
import { displayText } from './display-text.js';

/** C0 (but tab and newline), DEL and C1. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export function hasControlChars(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * Removes control characters, escape sequences whole, bidi controls and invisible characters; newline and
 * tab stay. The shared sanitiser (display-text.ts) in its multi-line form, unbounded.
 */
export function stripControlChars(text: string): string {
  return displayText(text, { multiline: true });
}
