// The line of code named with a host call: the sandbox is untrusted, so only its line number is read (a
// positive integer), and the text comes from the host's own copy of the run's code, as one short line.
import { describe, expect, it } from 'vitest';
import { CODE_LINE_MAX_TEXT, codeLineNumber, codeLineText, sourceLines } from '../../../../electron/sandbox/run/code-line.js';
import { interpretFrame } from '../../../../electron/sandbox/run/frame-parser.js';

describe('codeLineNumber', () => {
  it('reads a positive line number and ignores the text the sandbox sent', () => {
    expect(codeLineNumber({ line: 3, text: 'anything at all' })).toBe(3);
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
  ])('gives nothing for %s', (_name, where) => {
    expect(codeLineNumber(where)).toBeUndefined();
  });
});

describe('codeLineText', () => {
  const code = 'import x\r\nr = await mcp_fs.delete(path="a")\rprint(r)\n\fy = 1\u2028z = 2\n\tq\u001b[2J = 1\u009b';

  it('numbers lines as Python does (\\r\\n, \\r and \\n only)', () => {
    const lines = sourceLines(code);
    expect(codeLineText(lines, 2)).toBe('line 2: r = await mcp_fs.delete(path="a")');
    expect(codeLineText(lines, 3)).toBe('line 3: print(r)');
    expect(codeLineText(lines, 4)).toBe('line 4: y = 1 z = 2');
  });

  it('strips control characters and escape sequences whole, and folds blanks into one line', () => {
    expect(codeLineText(sourceLines(code), 5)).toBe('line 5: q = 1');
  });

  it('bounds the text', () => {
    expect(codeLineText(['x'.repeat(100_000)], 1)).toBe(`line 1: ${'x'.repeat(CODE_LINE_MAX_TEXT - 1)}…`);
  });

  it('gives nothing for a line the code does not have, or none', () => {
    expect(codeLineText(sourceLines('a\nb'), 3)).toBeUndefined();
    expect(codeLineText(sourceLines('a\nb'), undefined)).toBeUndefined();
  });
});

describe('rpc_request frames with a calling line', () => {
  it('carry the line number; a malformed one is dropped and the call still goes through', () => {
    const good = JSON.stringify({ type: 'rpc_request', id: 1, payload: { type: 'list_servers' }, where: { line: 2, text: 'forged text' } });
    expect(interpretFrame(good)).toEqual({ type: 'rpc_request', id: 1, payload: { type: 'list_servers' }, bytes: good.length, line: 2 });
    const bad = JSON.stringify({ type: 'rpc_request', id: 2, payload: {}, where: { line: 'two', text: 5 } });
    expect(interpretFrame(bad)).toEqual({ type: 'rpc_request', id: 2, payload: {}, bytes: bad.length });
  });
});
