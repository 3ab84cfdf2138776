// VS Code's JSON-with-comments: comments and trailing commas go, strings stay, positions are kept.
import { describe, expect, it } from 'vitest';
import { stripJsonComments } from '../../../../electron/proxy/discovery/jsonc.js';

describe('stripJsonComments', () => {
  it('removes line and block comments and trailing commas, but not text inside strings', () => {
    const text = '{\n  // a comment\n  "url": "http://x.test/a//b", /* block, */ "s": "/* not a comment */",\n  "list": [1, 2, /* c */ ],\n}';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ url: 'http://x.test/a//b', s: '/* not a comment */', list: [1, 2] });
  });

  it('keeps escaped quotes inside strings', () => {
    expect(JSON.parse(stripJsonComments('{"a": "say \\"//hi\\"", }'))).toEqual({ a: 'say "//hi"' });
  });

  it('keeps every position, so parse errors point into the real file', () => {
    const text = '{ /* x */ "a": 1, // y\n "b": 2, }';
    expect(stripJsonComments(text)).toHaveLength(text.length);
  });
});
