// One config file read as its client reads it: strict JSON, or (VS Code) JSON with comments and trailing
// commas through jsonc-parser; anything unreadable is a problem in words, never a throw.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfigFile } from '../../../../electron/proxy/discovery/read-config-file.js';

const write = (text: string) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sandbar-read-')), 'mcp.json');
  writeFileSync(file, text);
  return file;
};

describe('readConfigFile', () => {
  it('reads VS Code JSON with comments and trailing commas, leaving text inside strings alone', () => {
    const text = '\ufeff{\n  // a comment\n  "url": "http://x.test/a//b", /* block, */ "s": "/* not a comment */",\n  "list": [1, 2, /* c */ ],\n}';
    expect(readConfigFile(write(text), { jsonc: true })).toEqual({ kind: 'document', value: { url: 'http://x.test/a//b', s: '/* not a comment */', list: [1, 2] } });
  });

  it('says where a broken JSONC file is broken', () => {
    expect(readConfigFile(write('{\n  "a": 1,\n  "b" 2\n}'), { jsonc: true })).toEqual({ kind: 'problem', message: 'Not valid JSON: ColonExpected at line 3, column 7' });
  });

  it('reads other clients strictly: a comment is a problem there', () => {
    expect(readConfigFile(write('{ // no\n "a": 1 }'))).toMatchObject({ kind: 'problem', message: expect.stringMatching(/^Not valid JSON: /) });
    expect(readConfigFile(write('{"a": 1}'))).toEqual({ kind: 'document', value: { a: 1 } });
  });

  it('treats a missing file as normal and an empty one as no servers', () => {
    expect(readConfigFile('/nonexistent/sandbar/mcp.json')).toEqual({ kind: 'missing' });
    expect(readConfigFile(write('  \n'), { jsonc: true })).toEqual({ kind: 'document', value: {} });
  });
});
