// The host's side of display and file frames: every field is the sandbox's word and is checked here.
import { describe, expect, it } from 'vitest';
import { ArtifactCollector, MAX_FILE_NAMES, MAX_REFUSED, MAX_RUN_IMAGES, mimeTypeOf } from '../../../../electron/sandbox/run/artifact-collector.js';

function png(width: number, height: number, extra = 0): Buffer {
  const head = Buffer.alloc(33 + extra);
  head.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  return head;
}
const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64');
const caps = { imageCapBytes: 1000, maxFiles: 2, maxBytes: 100 };

describe('ArtifactCollector', () => {
  it('keeps checked images with names per source, sizes from the header (not the frame) and a clean title', () => {
    const c = new ArtifactCollector(caps);
    c.addDisplay({ type: 'display', mime: 'image/png', source: 'figure', data: b64(png(640, 480)), width: 1, height: 1, title: 'Sales\u001b[31m' });
    c.addDisplay({ type: 'display', mime: 'image/png', source: 'display', data: b64(png(10, 20)) });
    c.addDisplay({ type: 'display', mime: 'image/png', source: 'figure', data: b64(png(30, 40)) });
    c.addDisplay({ type: 'display', mime: 'image/svg+xml', source: 'display', data: b64('<?xml version="1.0"?><svg width="1"></svg>') });
    const { artifacts, refusedArtifacts } = c.result();
    expect(refusedArtifacts).toBeUndefined();
    expect(artifacts?.map((a) => [a.name, a.source, a.mimeType, a.width, a.height, a.title, a.size])).toEqual([
      ['figure-1.png', 'figure', 'image/png', 640, 480, 'Sales', 33],
      ['display-1.png', 'display', 'image/png', 10, 20, undefined, 33],
      ['figure-2.png', 'figure', 'image/png', 30, 40, undefined, 33],
      ['display-2.svg', 'display', 'image/svg+xml', undefined, undefined, undefined, 42],
    ]);
  });

  it('names an image by what its header says, whatever the frame claimed', () => {
    const c = new ArtifactCollector(caps);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0, 7, 0, 9, 1, 1, 0x11, 0]);
    c.addDisplay({ type: 'display', mime: 'image/png', source: 'display', data: b64(jpeg) });
    expect(c.result().artifacts?.map((a) => [a.name, a.mimeType, a.width, a.height])).toEqual([['display-1.jpeg', 'image/jpeg', 9, 7]]);
  });

  it('refuses bad headers, huge edges, images over the cap, missing data and fake SVG, each with a reason', () => {
    const c = new ArtifactCollector(caps);
    c.addDisplay({ type: 'display', mime: 'image/png', source: 'display', data: b64('GIF89a') });
    c.addDisplay({ type: 'display', mime: 'image/png', source: 'figure', data: b64(png(8001, 10)) });
    c.addDisplay({ type: 'display', mime: 'image/png', source: 'figure', data: b64(png(10, 10, 2000)) });
    c.addDisplay({ type: 'display', mime: 'image/jpeg', source: 'display', size: 5_000_000 });
    c.addDisplay({ type: 'display', mime: 'image/svg+xml', source: 'display', data: b64('<html>') });
    c.addDisplay({ type: 'display', data: ['not', 'a', 'string'] });
    c.addDisplay({ type: 'display', mime: 'image/png', source: 'display', data: b64(png(8000, 8000)) });
    expect(c.result().refusedArtifacts).toEqual([
      { name: 'display-1.png', source: 'display', reason: 'not a PNG or JPEG image (bad magic bytes)' },
      { name: 'figure-1.png', source: 'figure', reason: '8001×10 px is over the 8000 px edge models accept' },
      { name: 'figure-2.png', source: 'figure', reason: '2 KiB is over the image cap of 1000 B (imageCapBytes)' },
      { name: 'display-2.jpeg', source: 'display', reason: '4.8 MiB is over the image cap of 1000 B (imageCapBytes)' },
      { name: 'display-3.svg', source: 'display', reason: 'not an SVG document' },
      { name: 'display-4.png', source: 'display', reason: 'the sandbox sent no image data' },
    ]);
    expect(c.result().artifacts?.map((a) => a.name)).toEqual(['display-5.png']);
  });

  it(`keeps at most ${MAX_RUN_IMAGES} images per run`, () => {
    const c = new ArtifactCollector(caps);
    for (let i = 0; i < MAX_RUN_IMAGES + 2; i++) c.addDisplay({ type: 'display', mime: 'image/png', source: 'figure', data: b64(png(5, 5)) });
    const { artifacts, refusedArtifacts } = c.result();
    expect(artifacts).toHaveLength(MAX_RUN_IMAGES);
    expect(refusedArtifacts?.map((r) => r.name)).toEqual([`figure-${MAX_RUN_IMAGES + 1}.png`, `figure-${MAX_RUN_IMAGES + 2}.png`]);
    expect(refusedArtifacts?.[0]!.reason).toBe(`over the limit of ${MAX_RUN_IMAGES} images per run`);
  });

  it('assembles chunked files in order, after the images, typed by extension on the host', () => {
    const c = new ArtifactCollector(caps);
    c.addFile({ type: 'file', name: 'out/data/a.csv', offset: 0, data: b64('a,b\n'), last: false });
    c.addDisplay({ type: 'display', mime: 'image/png', source: 'figure', data: b64(png(5, 5)) });
    c.addFile({ type: 'file', name: 'out/data/a.csv', offset: 4, data: b64('1,2\n'), last: true });
    c.addFile({ type: 'file', name: 'out/fake.png', offset: 0, data: b64('not a png'), last: true });
    const { artifacts } = c.result();
    expect(artifacts?.map((a) => [a.name, a.source, a.mimeType, a.size])).toEqual([
      ['figure-1.png', 'figure', 'image/png', 33],
      ['out/data/a.csv', 'file', 'text/csv', 8],
      ['out/fake.png', 'file', 'application/octet-stream', 9],
    ]);
    expect(Buffer.from(artifacts![1]!.data).toString()).toBe('a,b\n1,2\n');
  });

  it('refuses unsafe names, duplicates, out-of-order chunks, files over the caps and files cut off by the end', () => {
    const c = new ArtifactCollector(caps);
    for (const name of ['../etc/passwd', 'out/../x', 'out/a b', 'out/', 'tmp/x', 'out//x', 42]) {
      c.addFile({ type: 'file', name, offset: 0, data: b64('x'), last: true });
    }
    c.addFile({ type: 'file', name: 'out/one', offset: 0, data: b64('1'), last: true });
    c.addFile({ type: 'file', name: 'out/one', offset: 0, data: b64('1'), last: true });
    c.addFile({ type: 'file', name: 'out/gap', offset: 0, data: b64('1'), last: false });
    c.addFile({ type: 'file', name: 'out/gap', offset: 5, data: b64('1'), last: true });
    c.addFile({ type: 'file', name: 'out/big', offset: 0, data: b64('x'.repeat(200)), last: true });
    c.addFile({ type: 'file', name: 'out/two', offset: 0, data: b64('2'), last: true });
    c.addFile({ type: 'file', name: 'out/three', offset: 0, data: b64('3'), last: true });
    c.addFile({ type: 'file', name: 'out/left-out', size: 10, omitted: 'bytes' });
    const { artifacts, refusedArtifacts } = c.result();
    expect(artifacts?.map((a) => a.name)).toEqual(['out/one', 'out/two']);
    expect(refusedArtifacts?.map((r) => [r.name, r.reason.replace(/ \(.*/, '')])).toEqual([
      ['../etc/passwd', 'not a valid artifact name'],
      ['out/../x', 'not a valid artifact name'],
      ['out/a b', 'not a valid artifact name'],
      ['out/', 'not a valid artifact name'],
      ['tmp/x', 'not a valid artifact name'],
      ['out//x', 'not a valid artifact name'],
      ['(unnamed)', 'not a valid artifact name'],
      ['out/one', 'sent twice'],
      ['out/gap', 'chunks out of order'],
      ['out/big', 'not returned: over the limit of 100 B of files per run'],
      ['out/three', 'not returned: over the limit of 2 files per run'],
      ['out/left-out', 'not returned'],
    ]);
    const cut = new ArtifactCollector(caps);
    cut.addFile({ type: 'file', name: 'out/partial', offset: 0, data: b64('abc'), last: false });
    expect(cut.result()).toEqual({ refusedArtifacts: [{ name: 'out/partial', source: 'file', reason: 'incomplete: the run ended while it was being sent' }] });
  });

  it(`names at most ${MAX_REFUSED} refusals and counts the rest`, () => {
    const c = new ArtifactCollector(caps);
    for (let i = 0; i < MAX_REFUSED + 7; i++) c.addDisplay({ type: 'display', mime: 'image/png', data: b64('bad') });
    const refused = c.result().refusedArtifacts!;
    expect(refused).toHaveLength(MAX_REFUSED + 1);
    expect(refused.at(-1)!.reason).toBe('and 7 more not kept');
  });

  it(`remembers at most ${MAX_FILE_NAMES} file names; past that a new name is only counted`, () => {
    const c = new ArtifactCollector({ ...caps, maxFiles: 0 });
    const total = MAX_FILE_NAMES + 5000;
    for (let i = 0; i < total; i++) c.addFile({ type: 'file', name: `out/${'n'.repeat(400)}-${i}`, offset: 0, data: '', last: true });
    const refused = c.result().refusedArtifacts!;
    expect(refused).toHaveLength(MAX_REFUSED + 1);
    expect(refused.at(-1)!.reason).toBe(`and ${total - MAX_REFUSED} more not kept`);
    // The set of names stops growing at the bound (each name here is about 400 characters).
    expect((c as unknown as { fileNames: Set<string> }).fileNames.size).toBe(MAX_FILE_NAMES);
  });

  it('counts the displays the agent left out past its per-run limit', () => {
    const c = new ArtifactCollector(caps);
    c.addDisplay({ type: 'display', mime: 'image/png', data: b64('bad') });
    c.addDisplay({ type: 'display', source: 'display', dropped: 40 });
    const reasons = c.result().refusedArtifacts!.map((r) => r.reason);
    expect(reasons).toHaveLength(2);
    expect(reasons[1]).toBe('and 40 more not kept');
  });

  it('types files by extension, unknown ones as octet-stream', () => {
    expect(['out/a.CSV', 'out/b.json', 'out/c', 'out/d.exe', 'out/e.svg'].map(mimeTypeOf)).toEqual([
      'text/csv', 'application/json', 'application/octet-stream', 'application/octet-stream', 'image/svg+xml',
    ]);
  });
});
