// Reads one config file. A missing file is normal (most people use few clients); anything else that stops
// the file being read is a problem with words the panel can show.
import { readFileSync } from 'node:fs';
import { errorMessage } from '../../../shared/errors.js';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

export type ReadOutcome = { kind: 'missing' } | { kind: 'problem'; message: string } | { kind: 'document'; value: unknown };

const READ_ERRORS: Record<string, string> = {
  EACCES: 'Cannot read the file: permission denied.',
  EPERM: 'Cannot read the file: permission denied.',
  EISDIR: 'It is a folder, not a file.',
};

export function readConfigFile(file: string, options: { jsonc?: boolean } = {}): ReadOutcome {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'problem', message: READ_ERRORS[code] ?? `Cannot read the file: ${errorMessage(err)}` };
  }
  // Windows editors often save a byte-order mark, which JSON.parse rejects.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // An empty file (a client that created its config but added nothing) defines no servers.
  if (text.trim() === '') return { kind: 'document', value: {} };
  if (options.jsonc) return readJsonc(text);
  try {
    return { kind: 'document', value: JSON.parse(text) };
  } catch (err) {
    return { kind: 'problem', message: `Not valid JSON: ${errorMessage(err)}` };
  }
}

/** VS Code's settings.json and mcp.json: JSON with comments and trailing commas, read as VS Code reads them. */
function readJsonc(text: string): ReadOutcome {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (!first) return { kind: 'document', value };
  const before = text.slice(0, first.offset).split('\n');
  return { kind: 'problem', message: `Not valid JSON: ${printParseErrorCode(first.error)} at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}` };
}
