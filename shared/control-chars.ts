// Control characters in text that came from a sandbox or a person: refused in queries, stripped before a
// terminal sees them (an escape sequence in recorded output must not drive the user's terminal).

/** C0 (but tab and newline), DEL and C1. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_ALL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function hasControlChars(text: string): boolean {
  return CONTROL.test(text);
}

/** Removes C0/C1 control characters; newline and tab stay. */
export function stripControlChars(text: string): string {
  return text.replace(CONTROL_ALL, '');
}
