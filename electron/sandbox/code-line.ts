// The line of user code that made a host call, as the agent reports it with each rpc_request. The sandbox
// is not trusted: whatever arrives is reduced to one short line of plain text before a person sees it.
import { stripControlChars } from '../../shared/control-chars.js';

/** Characters of the line's text kept (the agent sends at most 200). */
export const CODE_LINE_MAX_TEXT = 200;

/** `line N: text` from the frame's `where` ({line, text}); undefined when it is missing or malformed. */
export function codeLineFrom(where: unknown): string | undefined {
  if (!where || typeof where !== 'object' || Array.isArray(where)) return undefined;
  const { line, text } = where as { line?: unknown; text?: unknown };
  if (!Number.isSafeInteger(line) || (line as number) < 1 || typeof text !== 'string') return undefined;
  // Tabs and newlines survive stripControlChars: they become the single spaces of one line here.
  const flat = stripControlChars(text.slice(0, CODE_LINE_MAX_TEXT * 4)).replace(/\s+/g, ' ').trim();
  const bounded = flat.length > CODE_LINE_MAX_TEXT ? `${flat.slice(0, CODE_LINE_MAX_TEXT - 1)}…` : flat;
  return `line ${line as number}: ${bounded}`;
}
