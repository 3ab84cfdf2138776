// The line of user code that made a host call. The agent reports its number with each rpc_request (`where`);
// the sandbox is not trusted, so the text shown to a person comes from the host's own copy of the run's
// code: code in the sandbox can at most point at another line of the code it was given. The line becomes
// one short line of plain text.
import { stripControlChars } from '../../../shared/control-chars.js';

/** Characters of the line's text kept. */
export const CODE_LINE_MAX_TEXT = 200;

/** The line number in the frame's `where` ({line, text}); undefined when missing or malformed. */
export function codeLineNumber(where: unknown): number | undefined {
  if (!where || typeof where !== 'object' || Array.isArray(where)) return undefined;
  const { line } = where as { line?: unknown };
  return Number.isSafeInteger(line) && (line as number) >= 1 ? (line as number) : undefined;
}

/** Python numbers lines at \r\n, \r and \n only (str.splitlines() would also split at \f, \u2028, ...). */
export function sourceLines(code: string): string[] {
  return code.split(/\r\n|\r|\n/);
}

/** `line N: text` from the run's own code; undefined for a line the code does not have. */
export function codeLineText(lines: readonly string[], line: number | undefined): string | undefined {
  if (line === undefined || line > lines.length) return undefined;
  // Tabs and other blanks survive stripControlChars: they become the single spaces of one line here.
  const flat = stripControlChars(lines[line - 1]!.slice(0, CODE_LINE_MAX_TEXT * 4)).replace(/\s+/g, ' ').trim();
  const bounded = flat.length > CODE_LINE_MAX_TEXT ? `${flat.slice(0, CODE_LINE_MAX_TEXT - 1)}…` : flat;
  return `line ${line}: ${bounded}`;
}
