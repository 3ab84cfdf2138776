// run_python's argument parser (mcp/run-python-args.ts): good arguments become a RunRequest, bad ones a refusal in the reference's words.
import { describe, expect, it } from 'vitest';
import { checkRunPythonArgs, pyRepr } from '../../../electron/mcp/run-python-args.js';

const limits = { maxTimeoutSec: 120, maxCodeBytes: 256 * 1024 };

describe('checkRunPythonArgs', () => {
  it('passes good arguments through, servers kept in order with duplicates', () => {
    expect(checkRunPythonArgs({ code: 'print(1)', servers: ['a', 'b', 'a'], timeout: 5, extra: true }, limits)).toEqual({
      ok: true,
      request: { code: 'print(1)', servers: ['a', 'b', 'a'], packages: [], timeoutSec: 5 },
    });
    expect(checkRunPythonArgs({ code: 'x' }, limits)).toEqual({ ok: true, request: { code: 'x', servers: [], packages: [] } });
  });

  it('takes packages as requirement strings and refuses anything else in words', () => {
    expect(checkRunPythonArgs({ code: 'x', packages: ['duckdb==1.1.3', 'openpyxl'] }, limits)).toMatchObject({ ok: true, request: { packages: ['duckdb==1.1.3', 'openpyxl'] } });
    expect(checkRunPythonArgs({ code: 'x', packages: 'duckdb' }, limits)).toEqual({ ok: false, kind: 'schema', message: "Input validation error: 'duckdb' is not of type 'array'" });
    expect(checkRunPythonArgs({ code: 'x', packages: [1] }, limits)).toEqual({ ok: false, kind: 'schema', message: "Input validation error: 1 is not of type 'string'" });
    expect(checkRunPythonArgs({ code: 'x', packages: ['-e .'] }, limits)).toMatchObject({ ok: false, kind: 'validation', message: expect.stringContaining('is not a requirement Sandbar accepts') });
    expect(checkRunPythonArgs({ code: 'x', packages: Array.from({ length: 33 }, (_, i) => `p${i}`) }, limits)).toMatchObject({ ok: false, kind: 'validation', message: 'At most 32 packages per run.' });
  });

  it.each([
    [undefined, "'code' is a required property"],
    [{ timeout: 0 }, "'code' is a required property"],
    [{ code: null }, "None is not of type 'string'"],
    [{ code: true }, "True is not of type 'string'"],
    [{ code: ['a'] }, "['a'] is not of type 'string'"],
    [{ code: 'x', timeout: '5' }, "'5' is not of type 'integer'"],
    [{ code: 'x', timeout: true }, "True is not of type 'integer'"],
    [{ code: 'x', timeout: 121 }, '121 is greater than the maximum of 120'],
    [{ code: 'x', timeout: -3 }, '-3 is less than the minimum of 1'],
    [{ code: 'x', servers: { a: 1 } }, "{'a': 1} is not of type 'array'"],
  ])('%j → %s', (args, message) => {
    expect(checkRunPythonArgs(args as Record<string, unknown> | undefined, limits)).toEqual({ ok: false, kind: 'schema', message: `Input validation error: ${message}` });
  });

  it('refuses blank and oversized code as validation errors', () => {
    expect(checkRunPythonArgs({ code: ' \t\n' }, limits)).toEqual({ ok: false, kind: 'validation', message: "Missing 'code' argument" });
    const big = checkRunPythonArgs({ code: 'é'.repeat(200 * 1024) }, limits);
    expect(big).toMatchObject({ ok: false, kind: 'validation' });
    expect((big as { message: string }).message).toBe('Code is 400 KiB; the limit is 256 KiB. Send a shorter script.');
  });
});

describe('pyRepr', () => {
  it('writes values the way Python repr does', () => {
    expect(pyRepr("it's")).toBe('"it\'s"');
    expect(pyRepr('a\\b')).toBe("'a\\\\b'");
    expect(pyRepr(2.5)).toBe('2.5');
    expect(pyRepr([1, 'x', null, false])).toBe("[1, 'x', None, False]");
  });
});
