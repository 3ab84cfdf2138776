// The text edits: every byte outside the entry kept, removal the exact inverse of addition, errors located.
import { describe, expect, it } from 'vitest';
import { detectStyle, editEntry, parseConfig, readEntry } from '../../../electron/clients/jsonc-edit.js';
import { AppError } from '../../../shared/errors.js';

const at = { container: 'mcpServers', name: 'sandbar' };
const vsAt = { container: 'servers', name: 'sandbar' };
const entry = { url: 'http://127.0.0.1:7337/mcp', headers: { Authorization: 'Bearer t' } };

const doc = (text: string, jsonc = false) => parseConfig('/cfg.json', text, { jsonc, fallbackIndent: '  ' });
const add = (text: string, jsonc = false, path = at) => editEntry(doc(text, jsonc), path, entry);
const remove = (text: string, jsonc = false, path = at) => editEntry(doc(text, jsonc), path, undefined);

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected an error');
}

describe('detectStyle', () => {
  it('finds tabs, the narrowest space indent, and CRLF', () => {
    expect(detectStyle('{\n\t"a": {\n\t\t"b": 1\n\t}\n}', '  ')).toEqual({ indent: '\t', eol: '\n' });
    expect(detectStyle('{\r\n    "a": {\r\n        "b": 1\r\n    }\r\n}', '  ')).toEqual({ indent: '    ', eol: '\r\n' });
    expect(detectStyle('{\n  "a": [\n      1\n  ]\n}', '\t')).toEqual({ indent: '  ', eol: '\n' });
    expect(detectStyle('{"a": 1}', '\t')).toEqual({ indent: '\t', eol: '\n' });
  });
});

describe('editEntry: add then remove is the identity', () => {
  const cases: [string, string, boolean][] = [
    ['a one-line file', '{"mcpServers": {"a": {"command": "x"}}}', false],
    ['CRLF line endings', '{\r\n  "mcpServers": {\r\n    "a": {\r\n      "command": "x"\r\n    }\r\n  }\r\n}\r\n', false],
    ['an empty server list', '{\n  "mcpServers": {},\n  "other": true\n}\n', false],
    ['a byte-order mark', '\ufeff{\n  "mcpServers": {\n    "a": { "command": "x" }\n  }\n}', false],
    ['a comment after the last entry', '{\n\t"mcpServers": {\n\t\t"a": { "command": "x" } // keep me\n\t}\n}\n', true],
    ['a trailing comma and a comment', '{\n\t"mcpServers": {\n\t\t"a": { "command": "x" }, // keep me\n\t},\n}\n', true],
    ['a list holding only a comment', '{\n\t"mcpServers": { // nothing yet\n\t}\n}\n', true],
    ['a one-line list with a trailing comma', '{"mcpServers": {"a": 1,},}', true],
  ];
  it.each(cases)('%s', (_name, text, jsonc) => {
    const added = add(text, jsonc);
    expect(readEntry(doc(added, jsonc), at)).toEqual(entry);
    expect(readEntry(doc(added, jsonc), { container: 'mcpServers', name: 'a' })).toEqual(readEntry(doc(text, jsonc), { container: 'mcpServers', name: 'a' }));
    expect(remove(added, jsonc)).toBe(text);
  });

  it('keeps one-line files on one line and CRLF files in CRLF', () => {
    expect(add('{"mcpServers": {"a": 1}}')).toBe('{"mcpServers": {"a": 1, "sandbar": { "url": "http://127.0.0.1:7337/mcp", "headers": { "Authorization": "Bearer t" } }}}');
    const crlf = add('{\r\n  "mcpServers": {\r\n    "a": 1\r\n  }\r\n}\r\n');
    expect(crlf.replace(/\r\n/g, '')).not.toContain('\n');
    expect(crlf).toContain('    "sandbar": {\r\n      "url"');
  });

  it('leaves a comment with the entry it belonged to', () => {
    expect(add('{\n  "mcpServers": {\n    "a": 1 // note\n  }\n}', true)).toBe(
      '{\n  "mcpServers": {\n    "a": 1, // note\n    "sandbar": {\n      "url": "http://127.0.0.1:7337/mcp",\n      "headers": {\n        "Authorization": "Bearer t"\n      }\n    }\n  }\n}',
    );
  });
});

describe('editEntry: other shapes', () => {
  it('adds the server list when there is none, after the last key', () => {
    expect(add('{\n  "theme": "dark"\n}\n')).toBe(
      '{\n  "theme": "dark",\n  "mcpServers": {\n    "sandbar": {\n      "url": "http://127.0.0.1:7337/mcp",\n      "headers": {\n        "Authorization": "Bearer t"\n      }\n    }\n  }\n}\n',
    );
    expect(JSON.parse(add('{}'))).toEqual({ mcpServers: { sandbar: entry } });
  });

  it('writes a whole document into an empty file, and removes nothing from one', () => {
    expect(add('  \n')).toBe(`${JSON.stringify({ mcpServers: { sandbar: entry } }, null, 2)}\n`);
    expect(remove('')).toBe('');
  });

  it('replaces a stale entry in place, siblings and comments untouched', () => {
    const text = '{\n\t"servers": {\n\t\t// mine\n\t\t"sandbar": { "url": "http://old" }, // old\n\t\t"b": {},\n\t},\n}';
    const updated = editEntry(doc(text, true), vsAt, entry);
    expect(updated).toBe(
      '{\n\t"servers": {\n\t\t// mine\n\t\t"sandbar": {\n\t\t\t"url": "http://127.0.0.1:7337/mcp",\n\t\t\t"headers": {\n\t\t\t\t"Authorization": "Bearer t"\n\t\t\t}\n\t\t}, // old\n\t\t"b": {},\n\t},\n}',
    );
  });

  it('removes hand-written entries anywhere, with their comma and nothing else', () => {
    const first = '{\n  "servers": {\n    // Sandbar\n    "sandbar": { "url": "u" },\n    "b": {}\n  }\n}';
    expect(remove(first, true, vsAt)).toBe('{\n  "servers": {\n    // Sandbar\n    "b": {}\n  }\n}');
    const last = '{\n  "servers": {\n    "a": {}, // note\n    "sandbar": { "url": "u" }\n  }\n}';
    expect(remove(last, true, vsAt)).toBe('{\n  "servers": {\n    "a": {} // note\n  }\n}');
    const middle = '{"mcpServers": {"a": 1, "sandbar": 2, "b": 3}}';
    expect(remove(middle)).toBe('{"mcpServers": {"a": 1, "b": 3}}');
    const only = '{\n  "mcpServers": {\n    "sandbar": { "url": "u" }\n  }\n}';
    expect(remove(only)).toBe('{\n  "mcpServers": {}\n}');
    expect(remove('{"mcpServers": {"a": 1}}')).toBe('{"mcpServers": {"a": 1}}');
  });
});

describe('parseConfig', () => {
  it('names the file and where the first error is', () => {
    const err = errorOf(() => doc('{\n  "a": 1,\n}'));
    expect(err.code).toBe('invalid_config');
    expect(err.message).toMatch(/^\/cfg\.json is not valid JSON \(\w+ at line 3, column 1\)/);
    expect(errorOf(() => doc('{\n  "a": tru\n}', true)).message).toMatch(/JSON with comments \(\w+ at line 2, column 8\)/);
  });

  it('takes comments and trailing commas only where the client does', () => {
    const text = '{\n  // c\n  "mcpServers": {},\n}';
    expect(errorOf(() => doc(text)).message).toContain('line 2, column 3');
    expect(readEntry(doc(text, true), at)).toBeUndefined();
  });
});
