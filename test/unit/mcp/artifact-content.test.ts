// The result shape of a run that made figures, displays or files (issue 14), on synthetic results: what
// goes inline, what becomes a link, the size bound, and that a plain result never changes.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { artifactLine, responseBytes, withArtifacts } from '../../../electron/mcp/artifact-content.js';
import { STRUCTURED_META_KEY } from '../../../electron/mcp/result-format.js';
import { cutOutput, runToolResult, toolResult } from '../../../electron/mcp/tool-result.js';
import { payloadFromResult } from '../../../electron/mcp/result-format.js';
import { artifactUri, MAX_RESPONSE_BYTES, parseArtifactUri, type Artifact, type ArtifactSource } from '../../../shared/artifacts.js';
import type { ExecutionResult } from '../../../shared/execution.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';

function result(extra: Partial<ExecutionResult> = {}): ExecutionResult {
  return {
    id: 'run-7',
    exitReason: 'success',
    exitCode: 0,
    stdout: 'done\n',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    timeoutSec: 30,
    limits: DEFAULT_LIMITS,
    queuedAt: 1_000,
    startedAt: 1_010,
    finishedAt: 1_130,
    durationMs: 120,
    ...extra,
  };
}

/** Bytes that start like a PNG, filled with a marker so each artifact's base64 is recognisable. */
function bytes(size: number, fill: number): Uint8Array {
  const data = new Uint8Array(size).fill(fill);
  data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return data;
}

function png(n: number, extra: Partial<Artifact> = {}, size = 1000): Artifact {
  return { name: `figure-${n}.png`, mimeType: 'image/png', size, source: 'figure' as ArtifactSource, width: 1200, height: 800, data: bytes(size, n), ...extra };
}

const b64 = (a: Artifact) => Buffer.from(a.data).toString('base64');
const blocks = (r: CallToolResult, type: string) => r.content.filter((c) => c.type === type);

describe('a plain result (no artifacts)', () => {
  it('is exactly the reference shape, in compact and toon mode, whatever the artifact fields say', () => {
    for (const mode of ['compact', 'toon'] as const) {
      const plain = toolResult(payloadFromResult(result()), mode);
      expect(runToolResult(result(), [], mode)).toEqual(plain);
      expect(runToolResult(result({ artifacts: [], refusedArtifacts: [] }), [], mode)).toEqual(plain);
      expect(plain.structuredContent).toBeDefined();
    }
    expect(runToolResult(result({ stdout: '1\n' }), [], 'compact')).toEqual({
      content: [{ type: 'text', text: '1' }],
      structuredContent: { stdout: ['1'], exitReason: 'success', durationMs: 120 },
      isError: false,
    });
  });
});

describe('a result with figures', () => {
  it('puts the text first, then one line per image, then image blocks, and has no structuredContent', () => {
    const sales = png(1, { title: 'Sales' });
    const display = png(2, { name: 'display-2.jpeg', mimeType: 'image/jpeg', source: 'display', width: 640, height: 480 });
    const r = runToolResult(result({ artifacts: [sales, display] }), [], 'compact');
    expect(r.content.map((c) => c.type)).toEqual(['text', 'text', 'image', 'image']);
    expect(r.content[0]).toEqual({ type: 'text', text: 'done' });
    expect(r.content[1]).toEqual({ type: 'text', text: "figure 1: 'Sales', 1200×800\nimage 2: 640×480" });
    expect(r.content[2]).toEqual({ type: 'image', mimeType: 'image/png', data: b64(sales) });
    expect(r.content[3]).toEqual({ type: 'image', mimeType: 'image/jpeg', data: b64(display) });
    expect(r).not.toHaveProperty('structuredContent');
    expect(r.isError).toBe(false);
    // The payload `sandbar run` prints stays readable, out of the clients' way.
    expect(r._meta?.[STRUCTURED_META_KEY]).toEqual({ stdout: ['done'], exitReason: 'success', durationMs: 120 });
  });

  it('keeps the toon text first and drops its structuredContent too', () => {
    const r = runToolResult(result({ artifacts: [png(1)] }), [], 'toon');
    expect(r.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^```toon\n/) });
    expect(r.content.map((c) => c.type)).toEqual(['text', 'text', 'image']);
    expect(r).not.toHaveProperty('structuredContent');
  });

  it('keeps isError and the error text of a failed run that still made a figure', () => {
    const r = runToolResult(result({ exitReason: 'error', exitCode: 1, stdout: '', stderr: 'Traceback\nValueError: x\n', message: 'Sandbox exited with code 1', artifacts: [png(1)] }), [], 'compact');
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toMatch(/^status: error\nstderr:\nTraceback/);
    expect(blocks(r, 'image')).toHaveLength(1);
  });

  it('inlines at most 8 images; the rest are resource_links with uri, name, mimeType and size', () => {
    const figures = Array.from({ length: 12 }, (_, i) => png(i + 1, { title: `F${i + 1}` }));
    const r = runToolResult(result({ artifacts: figures }), [], 'compact');
    const images = blocks(r, 'image');
    const links = blocks(r, 'resource_link');
    expect(images).toHaveLength(8);
    expect(images.map((c) => (c as { data: string }).data)).toEqual(figures.slice(0, 8).map(b64));
    expect(links).toEqual(
      figures.slice(8).map((f) => ({ type: 'resource_link', uri: `sandbar://runs/run-7/artifacts/${f.name}`, name: f.name, mimeType: 'image/png', size: 1000, title: f.title })),
    );
    for (const link of links) expect(parseArtifactUri((link as { uri: string }).uri)).toEqual({ runId: 'run-7', name: (link as { name: string }).name });
    const lines = (r.content[1] as { text: string }).text.split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe("figure 1: 'F1', 1200×800");
    expect(lines[8]).toBe("figure 9: 'F9', 1200×800 (linked as figure-9.png)");
    expect(r).not.toHaveProperty('structuredContent');
  });

  it('never inlines SVG or HTML, and every file is a link', () => {
    const svg: Artifact = { name: 'display-1.svg', mimeType: 'image/svg+xml', size: 40, source: 'display', data: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>') };
    const html: Artifact = { name: 'display-2.html', mimeType: 'text/html', size: 12, source: 'display', data: new TextEncoder().encode('<b>hello</b>') };
    const filePng = png(3, { name: 'out/chart.png', source: 'file' });
    const csv: Artifact = { name: 'out/report.csv', mimeType: 'text/csv', size: 6, source: 'file', data: new TextEncoder().encode('a,b\n1,2') };
    const r = runToolResult(result({ artifacts: [svg, html, filePng, csv] }), [], 'compact');
    expect(blocks(r, 'image')).toHaveLength(0);
    expect(blocks(r, 'resource_link').map((c) => (c as { uri: string }).uri)).toEqual([
      artifactUri('run-7', 'display-1.svg'),
      artifactUri('run-7', 'display-2.html'),
      'sandbar://runs/run-7/artifacts/out/chart.png',
      'sandbar://runs/run-7/artifacts/out/report.csv',
    ]);
    expect((r.content[1] as { text: string }).text.split('\n')).toEqual([
      'image 1 (image/svg+xml, linked as display-1.svg)',
      'display display-2.html (text/html, 12 B, linked)',
      'file out/chart.png (image/png, 1000 B, linked)',
      'file out/report.csv (text/csv, 6 B, linked)',
    ]);
    expect(r).not.toHaveProperty('structuredContent');
  });

  it('states every refused artifact with its reason in the text', () => {
    const r = runToolResult(
      result({
        artifacts: [png(1)],
        refusedArtifacts: [
          { name: 'figure-2.png', source: 'figure', reason: 'image is 20000×100 px; the limit is 8000 px' },
          { name: 'display-3.png', source: 'display', reason: 'not a PNG or JPEG (bad header)' },
        ],
      }),
      [],
      'compact',
    );
    const notes = (r.content[1] as { text: string }).text;
    expect(notes).toContain('not returned: figure-2.png (figure): image is 20000×100 px; the limit is 8000 px');
    expect(notes).toContain('not returned: display-3.png (display): not a PNG or JPEG (bad header)');
  });

  it('with only refusals, keeps the structured content (no image a client could drop) and says why in text', () => {
    const r = runToolResult(result({ refusedArtifacts: [{ name: 'figure-1.png', source: 'figure', reason: 'larger than 350 KB' }] }), [], 'compact');
    expect(r.content).toEqual([
      { type: 'text', text: 'done' },
      { type: 'text', text: 'not returned: figure-1.png (figure): larger than 350 KB' },
    ]);
    expect(r.structuredContent).toEqual({ stdout: ['done'], exitReason: 'success', durationMs: 120 });
  });
});

describe('the response size bound', () => {
  it('keeps a result with eight large figures under 1,040,000 bytes by turning the largest into links', () => {
    // 8 × 300 KB of PNG is 3.2 MB of base64: far over the bound.
    const sizes = [300_000, 120_000, 310_000, 90_000, 305_000, 100_000, 200_000, 50_000];
    const figures = sizes.map((size, i) => png(i + 1, {}, size));
    const r = runToolResult(result({ artifacts: figures }), [], 'compact');
    expect(responseBytes(r)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    expect(Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 123456, result: r }))).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    const inline = blocks(r, 'image').map((c) => (c as { data: string }).data);
    const linked = blocks(r, 'resource_link').map((c) => (c as { name: string }).name);
    // The three largest went (560 KB left is 750 KB of base64); the rest stayed inline, in order.
    expect(linked).toEqual(['figure-1.png', 'figure-3.png', 'figure-5.png']);
    expect(inline).toEqual([figures[1], figures[3], figures[5], figures[6], figures[7]].map((f) => b64(f!)));
    expect(r).not.toHaveProperty('structuredContent');
  });

  it('honours a smaller bound the same way', () => {
    const figures = [png(1, {}, 4000), png(2, {}, 1000)];
    const r = withArtifacts(toolResult(payloadFromResult(result()), 'compact'), { runId: 'r', artifacts: figures, refused: [] }, { maxResponseBytes: 5000 });
    expect(blocks(r, 'image')).toHaveLength(1);
    expect(blocks(r, 'resource_link').map((c) => (c as { name: string }).name)).toEqual(['figure-1.png']);
    expect(responseBytes(r)).toBeLessThanOrEqual(5000);
  });

  it('cuts over-long output last, saying so, when links alone cannot make it fit', () => {
    const stdout = `${'x'.repeat(700_000)}\n${'é'.repeat(300_000)}\n`; // about 1.3 MB of text
    const r = runToolResult(result({ stdout, artifacts: [png(1, {}, 50_000)] }), [], 'compact');
    expect(responseBytes(r)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    expect(blocks(r, 'image')).toHaveLength(0);
    expect(blocks(r, 'resource_link')).toHaveLength(1);
    const text = (r.content[0] as { text: string }).text;
    expect(text.startsWith('x'.repeat(700_000))).toBe(true);
    expect(text).toMatch(/\n\[sandbar: stdout cut here after [^\]]+ a result may not pass 1,040,000 bytes\. The code printed 1\.2 MiB \(1,300,002 bytes\); [^\]]+\]$/);
    // Cut no more than needed: most of the megabyte is still there.
    expect(responseBytes(r)).toBeGreaterThan(MAX_RESPONSE_BYTES - 20_000);
    // The structured copy for `sandbar run` stays, without the output (the text has it).
    expect(r._meta?.[STRUCTURED_META_KEY]).toMatchObject({ outputInText: true, exitReason: 'success' });
    expect(r._meta?.[STRUCTURED_META_KEY]).not.toHaveProperty('stdout');
    // The line about the figure survives whole.
    expect(r.content[1]).toEqual({ type: 'text', text: 'figure 1: 1200×800 (linked as figure-1.png)' });
  });

  it('keeps 900 KB of output whole in the text, dropping only its structured copy, in both modes', () => {
    for (const mode of ['compact', 'toon'] as const) {
      const stdout = 'line of output\n'.repeat(60_000); // 900 KB, twice in the response if both kept it
      const r = runToolResult(result({ stdout, stderr: 'warning\n' }), [], mode);
      expect(responseBytes(r)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
      expect(r.content).toHaveLength(1);
      const text = (r.content[0] as { text: string }).text;
      if (mode === 'compact') expect(text).toBe(`${stdout}stderr:\nwarning`);
      else expect(text).toContain(`stdout[60000]:`);
      expect(text).not.toContain('[sandbar:');
      expect(r.structuredContent).toMatchObject({ outputInText: true, exitReason: 'success' });
      expect(r.structuredContent).not.toHaveProperty('stdout');
      expect(r.structuredContent).not.toHaveProperty('stderr');
    }
  });

  it('cuts 10 MB printed (1 MiB kept at the cap) to an unbroken head of the text, saying where, why and how much was printed', () => {
    const cap = 1024 * 1024;
    const kept = Array.from({ length: cap / 16 }, (_, i) => `${String(i).padStart(15, '0')}\n`).join('');
    const capture = `${kept}[sandbar: stdout cut at 1 MiB (outputCapBytes); the code printed 9.5 MiB (10,000,000 bytes)]\n`;
    const r = runToolResult(result({ stdout: capture, stdoutTruncated: true, stdoutPrinted: 10_000_000 }), [], 'compact');
    expect(responseBytes(r)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    const text = (r.content[0] as { text: string }).text;
    // The head, then a line break of the cut's own (the head may end mid-line), then the note.
    const [head, note] = [text.slice(0, text.lastIndexOf('\n[sandbar:')), text.slice(text.lastIndexOf('\n[sandbar:') + 1)];
    expect(kept.startsWith(head)).toBe(true);
    expect(head.length).toBeGreaterThan(800_000);
    expect(note).toBe(`[sandbar: stdout cut here after ${(head.length / 1024).toFixed(1)} KiB (${head.length.toLocaleString('en-US')} bytes): a result may not pass 1,040,000 bytes. The code printed 9.5 MiB (10,000,000 bytes); the run's history keeps its first 1 MiB (outputCapBytes)]`);
  });

  it('leaves a plain result just under the bound exactly as it was', () => {
    const stdout = 'y'.repeat(450_000);
    const plain = toolResult(payloadFromResult(result({ stdout })), 'compact');
    expect(responseBytes(plain)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    expect(runToolResult(result({ stdout }), [], 'compact')).toEqual(plain);
  });

  it('cutOutput cuts the longer stream and stops when nothing is left to cut', () => {
    const r = result({ stdout: 'a'.repeat(10_000), stderr: 'b'.repeat(10) });
    const cut = cutOutput(r, 1000);
    expect(cut.stdout.startsWith('a'.repeat(8000))).toBe(true);
    expect(cut.stdout).toMatch(/\n\[sandbar: stdout cut here after .* The code printed 9\.8 KiB \(10,000 bytes\); the run's history keeps all of it\]\n$/);
    expect(cut.stdoutTruncated).toBe(true);
    expect(cut.stderr).toBe(r.stderr);
    // A second cut still says how much was printed in all.
    expect(cutOutput(cut, 1000).stdout).toContain('The code printed 9.8 KiB (10,000 bytes)');
    const empty = result({ stdout: '', stderr: '' });
    expect(cutOutput(empty, 100)).toBe(empty);
    const bare = cutOutput(result({ stdout: 'z', stderr: '' }), 10_000);
    expect(bare.stdout).toMatch(/^\[sandbar: stdout cut here after 0 B/);
    expect(cutOutput(bare, 10_000)).toBe(bare);
  });

  it('leaves a result under the bound alone', () => {
    const r = runToolResult(result({ artifacts: [png(1, {}, 200_000)] }), [], 'compact');
    expect(blocks(r, 'image')).toHaveLength(1);
    expect(responseBytes(r)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
  });
});

describe('artifactLine', () => {
  it('names figures and displays by number, with title and size when known', () => {
    expect(artifactLine(png(1, { title: 'Sales' }), 1, true)).toBe("figure 1: 'Sales', 1200×800");
    expect(artifactLine(png(2, { source: 'display', width: 640, height: 480 }), 2, true)).toBe('image 2: 640×480');
    expect(artifactLine(png(3, { source: 'display', title: 'Map' }), 3, false)).toBe("image 3: 'Map', 1200×800 (linked as figure-3.png)");
  });
});
