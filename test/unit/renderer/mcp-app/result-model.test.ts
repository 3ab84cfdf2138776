// The View reads every shape of run_python result the server sends: compact and TOON structured content,
// the copy under `_meta` when figures or links came back, a session's first line, and text-only errors.
import { describe, expect, it } from 'vitest';
import { exitLine, resultModel } from '../../../../renderer/mcp-app/result-model.js';

describe('resultModel', () => {
  it('reads a compact success', () => {
    const model = resultModel({ content: [{ type: 'text', text: 'hi\nthere' }], structuredContent: { stdout: ['hi', 'there'], exitReason: 'success', durationMs: 420 } });
    expect(model).toMatchObject({ ok: true, exitWords: 'finished', stdout: 'hi\nthere', stderr: '', error: null, session: null, images: [], links: [] });
    expect(exitLine(model)).toBe('finished · 420 ms');
  });

  it("says each of Sandbar's own stops in words, with the message where it adds to them", () => {
    const timeout = resultModel({ isError: true, content: [{ type: 'text', text: 'status: timeout' }], structuredContent: { status: 'timeout', timeoutSeconds: 5, error: 'Execution timed out after 5s', exitReason: 'timeout', durationMs: 5000 } });
    expect(timeout).toMatchObject({ ok: false, exitWords: 'timed out after 5s', error: 'Execution timed out after 5s' });
    const memory = resultModel({ isError: true, content: [], structuredContent: { status: 'error', error: 'Memory limit exceeded', exitReason: 'memory' } });
    expect(memory.exitWords).toBe('killed: memory limit');
    const failed = resultModel({ isError: true, content: [], structuredContent: { status: 'error', stderr: ['Traceback', 'ValueError: x'], error: 'error', exitReason: 'error' } });
    // A plain failure says why in its traceback; the error line would only repeat the reason.
    expect(failed).toMatchObject({ exitWords: 'failed: the code exited with an error', stderr: 'Traceback\nValueError: x', error: null });
  });

  it('reads the structured copy under _meta when a result has images and links, and the lines about them', () => {
    const model = resultModel({
      content: [
        { type: 'text', text: 'plotted' },
        { type: 'text', text: "figure 1: 'Sales', 640×480\nfile out/a.csv (text/csv, 12 B, linked)" },
        { type: 'image', mimeType: 'image/png', data: 'iVBOR' },
        { type: 'resource_link', uri: 'sandbar://runs/r1/artifacts/out/a.csv', name: 'out/a.csv', mimeType: 'text/csv', size: 12 },
      ],
      _meta: { 'sandbar/result': { stdout: ['plotted'], exitReason: 'success', durationMs: 1200 } },
    });
    expect(model.stdout).toBe('plotted');
    expect(model.images).toEqual([{ mimeType: 'image/png', data: 'iVBOR' }]);
    expect(model.links).toEqual([{ uri: 'sandbar://runs/r1/artifacts/out/a.csv', name: 'out/a.csv', mimeType: 'text/csv', size: 12 }]);
    expect(model.notes).toEqual(["figure 1: 'Sales', 640×480", 'file out/a.csv (text/csv, 12 B, linked)']);
  });

  it('finds the session in the structured content, or in the first line when there is none, with why it ended', () => {
    expect(resultModel({ content: [{ type: 'text', text: 'session: s-1\n42' }], structuredContent: { stdout: ['42'], exitReason: 'success', session: { id: 's-1', calls: 1 } } }).session).toEqual({ id: 's-1', ended: null });
    expect(resultModel({ content: [{ type: 'text', text: 'session: s-2\nsession ended: idle\nout' }, { type: 'image', data: 'x', mimeType: 'image/png' }], _meta: { 'sandbar/result': { exitReason: 'success' } } }).session).toEqual({ id: 's-2', ended: 'idle' });
  });

  it('reads a TOON result (the full payload) the same way', () => {
    const model = resultModel({ isError: true, content: [{ type: 'text', text: '```toon\n…\n```' }], structuredContent: { status: 'error', summary: 'Sandbox error: x', stdout: ['a'], stderr: ['b'], error: 'x', exitReason: 'runtime_error', durationMs: 0 } });
    expect(model).toMatchObject({ ok: false, exitWords: 'runtime error: x', stdout: 'a', stderr: 'b', error: 'x' });
  });

  it('shows a text-only error (arguments refused before running) as the error, and copes with junk', () => {
    expect(resultModel({ isError: true, content: [{ type: 'text', text: "Input validation error: 'code' is a required property" }] })).toMatchObject({
      ok: false,
      exitWords: "Input validation error: 'code' is a required property",
      error: "Input validation error: 'code' is a required property",
      exitReason: null,
    });
    expect(resultModel({ isError: true, content: 'nonsense' as unknown })).toMatchObject({ ok: false, exitWords: 'The call failed.' });
    expect(resultModel({ content: [null, 7, { type: 'text' }], structuredContent: { stdout: 'not lines', exitReason: 'bogus' } })).toMatchObject({ ok: true, stdout: 'not lines', exitReason: null });
  });
});
