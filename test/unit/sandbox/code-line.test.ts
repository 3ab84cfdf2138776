// What the host makes of the `where` an rpc_request carries: the sandbox is untrusted, so only a positive line
// number and a string pass, reduced to one short line of plain text.
import { describe, expect, it } from 'vitest';
import { CODE_LINE_MAX_TEXT, codeLineFrom } from '../../../electron/sandbox/code-line.js';
import { interpretFrame } from '../../../electron/sandbox/frame-parser.js';

describe('codeLineFrom', () => {
  it('formats a line number and its text', () => {
    expect(codeLineFrom({ line: 3, text: 'r = await mcp_fs.delete(path="a")' })).toBe('line 3: r = await mcp_fs.delete(path="a")');
  });

  it('strips control characters and folds whitespace into one line', () => {
    expect(codeLineFrom({ line: 1, text: 'a\u001b[2J\tb\nc\r\u009bd\u007f' })).toBe('line 1: a[2J b cd');
  });

  it('bounds the text whatever the sandbox sends', () => {
    const shown = codeLineFrom({ line: 9, text: 'x'.repeat(100_000) })!;
    expect(shown).toBe(`line 9: ${'x'.repeat(CODE_LINE_MAX_TEXT - 1)}…`);
  });

  it.each([
    ['nothing', undefined],
    ['null', null],
    ['an array', [1, 'x']],
    ['a string', 'line 1: x'],
    ['line zero', { line: 0, text: 'x' }],
    ['a negative line', { line: -2, text: 'x' }],
    ['a fractional line', { line: 1.5, text: 'x' }],
    ['a string line', { line: '1', text: 'x' }],
    ['text not a string', { line: 1, text: { a: 1 } }],
  ])('gives nothing for %s', (_name, where) => {
    expect(codeLineFrom(where)).toBeUndefined();
  });
});

describe('rpc_request frames with a calling line', () => {
  it('carries the cleaned line; a malformed one is dropped and the call still goes through', () => {
    const good = JSON.stringify({ type: 'rpc_request', id: 1, payload: { type: 'list_servers' }, where: { line: 2, text: 'await x()' } });
    expect(interpretFrame(good)).toMatchObject({ type: 'rpc_request', id: 1, codeLine: 'line 2: await x()' });
    const bad = JSON.stringify({ type: 'rpc_request', id: 2, payload: {}, where: { line: 'two', text: 5 } });
    const frame = interpretFrame(bad);
    expect(frame).toEqual({ type: 'rpc_request', id: 2, payload: {}, bytes: bad.length });
  });
});
