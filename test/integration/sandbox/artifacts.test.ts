// Figures, displayed images and /workspace/out files through a real container: what the code makes comes
// back on the result, resized for a model, with headers the host checked; forged frames are refused and
// the run goes on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/sandbox/engine.js';
import { readImageHeader } from '../../../electron/sandbox/run/image-header.js';
import { MODEL_IMAGE_EDGE_PX, MODEL_IMAGE_PIXELS, type Artifact } from '../../../shared/artifacts.js';
import type { ExecutionResult } from '../../../shared/execution.js';
import { sandbox, startEngine } from '../helpers.js';

describe.skipIf(!sandbox.available)('artifacts from the sandbox', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startEngine({ poolSize: 1 });
  });
  afterAll(async () => {
    await engine?.dispose();
  });

  const run = async (code: string): Promise<ExecutionResult> => {
    const r = await engine.submit({ code }).result;
    expect(r.exitReason, r.stderr).toBe('success');
    return r;
  };
  const art = (r: ExecutionResult): Artifact[] => r.artifacts ?? [];
  /** The image's real header agrees with what the result says, and fits the model's bounds. */
  const fitsModel = (a: Artifact) => {
    const header = readImageHeader(a.data);
    expect(header).toMatchObject({ ok: true, mimeType: a.mimeType, width: a.width, height: a.height });
    expect(Math.max(a.width!, a.height!)).toBeLessThanOrEqual(MODEL_IMAGE_EDGE_PX);
    expect(a.width! * a.height!).toBeLessThanOrEqual(MODEL_IMAGE_PIXELS * 1.01);
    expect(a.size).toBe(a.data.length);
  };

  it('plain print(1) has no artifacts at all', async () => {
    const r = await run('print(1)');
    expect(r.stdout).toBe('1\n');
    expect(r).not.toHaveProperty('artifacts');
    expect(r).not.toHaveProperty('refusedArtifacts');
    expect(r).not.toHaveProperty('importedModules'); // the engine's own, never on the result
  });

  it('plt.show() returns the figure with its title, once', async () => {
    const r = await run(`
import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.plot([1, 3, 2])
ax.set_title('Sales')
plt.show()
print('open after show:', plt.get_fignums())
`);
    expect(r.stdout).toBe('open after show: []\n');
    expect(art(r).map((a) => [a.name, a.source, a.mimeType, a.title])).toEqual([['figure-1.png', 'figure', 'image/png', 'Sales']]);
    fitsModel(art(r)[0]!);
    expect([art(r)[0]!.width, art(r)[0]!.height]).toEqual([640, 480]);
  });

  it('returns a figure that was opened but never shown, with the suptitle as its title', async () => {
    const r = await run(`
import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.bar(['a', 'b'], [3, 4])
ax.set_title('axes title')
fig.suptitle('Quarterly')
`);
    expect(art(r).map((a) => [a.name, a.title])).toEqual([['figure-1.png', 'Quarterly']]);
    fitsModel(art(r)[0]!);
  });

  it('resizes a 40×30-inch figure in the sandbox to the model bounds', async () => {
    const r = await run(`
import matplotlib.pyplot as plt
fig = plt.figure(figsize=(40, 30))
plt.plot(range(100))
plt.show()
`);
    expect(art(r)).toHaveLength(1);
    const figure = art(r)[0]!;
    fitsModel(figure);
    // Scaled, not cropped: the aspect ratio stays 4:3.
    expect(Math.abs(figure.width! / figure.height! - 4 / 3)).toBeLessThan(0.01);
    expect(figure.width).toBeGreaterThan(1000);
  });

  it('returns 12 figures as 12 artifacts, in the order the code made them', async () => {
    const r = await run(`
import matplotlib.pyplot as plt
for i in range(12):
    plt.figure()
    plt.title('fig %d' % i)
    plt.plot([0, i])
plt.figure(3)  # making an earlier figure current again does not change the order
plt.show()
`);
    expect(art(r).map((a) => a.name)).toEqual(Array.from({ length: 12 }, (_, i) => `figure-${i + 1}.png`));
    expect(art(r).map((a) => a.title)).toEqual(Array.from({ length: 12 }, (_, i) => `fig ${i}`));
  });

  it('display() shows a PIL image, PNG bytes, JPEG bytes, _repr_png_ and _repr_svg_ (SVG as a link-only type)', async () => {
    const r = await run(`
import io
from PIL import Image
big = Image.new('RGB', (4000, 1000), (200, 30, 30))
display(big)
buf = io.BytesIO(); Image.new('RGBA', (64, 32), (0, 0, 255, 128)).save(buf, 'PNG'); png = buf.getvalue()
display(png)
buf = io.BytesIO(); Image.new('RGB', (50, 40), 'green').save(buf, 'JPEG'); display(buf.getvalue())
class Chart:
    def _repr_png_(self):
        return png
class Diagram:
    def _repr_svg_(self):
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'
display(Chart(), Diagram())
Image.new('L', (30, 20)).show()
display({'not': 'an image'})
`);
    expect(art(r).map((a) => [a.name, a.source, a.mimeType, a.width, a.height])).toEqual([
      ['display-1.png', 'display', 'image/png', 1568, 392],
      ['display-2.png', 'display', 'image/png', 64, 32],
      ['display-3.jpeg', 'display', 'image/jpeg', 50, 40],
      ['display-4.png', 'display', 'image/png', 64, 32],
      ['display-5.svg', 'display', 'image/svg+xml', undefined, undefined],
      ['display-6.png', 'display', 'image/png', 30, 20],
    ]);
    for (const a of art(r).filter((x) => x.mimeType !== 'image/svg+xml')) fitsModel(a);
    expect(Buffer.from(art(r)[4]!.data).toString()).toContain('<rect');
    expect(r.stdout).toBe("{'not': 'an image'}\n");
  });

  it('display() of bytes that are no image raises a clear error in the code', async () => {
    const r = await engine.submit({ code: 'display(b"hello")' }).result;
    expect(r.exitReason).toBe('error');
    expect(r.stderr).toContain('ValueError: display(): these bytes are not a PNG or JPEG image');
  });

  it('returns files written under /workspace/out, after the figures, with a type by extension', async () => {
    const r = await run(`
import os, matplotlib.pyplot as plt
os.makedirs('out/data', exist_ok=True)
open('out/report.csv', 'w').write('a,b\\n1,2\\n')
open('out/data/raw bytes.bin', 'wb').write(bytes(range(256)) * 8192)  # 2 MiB: several frames
os.symlink('/etc/passwd', 'out/link')
plt.plot([1, 2])
plt.savefig('out/chart.png')
`);
    expect(art(r).map((a) => [a.name, a.source, a.mimeType, a.size])).toEqual([
      ['figure-1.png', 'figure', 'image/png', art(r)[0]!.size],
      ['out/chart.png', 'file', 'image/png', art(r)[1]!.size],
      ['out/data/raw_bytes.bin', 'file', 'application/octet-stream', 2 * 1024 * 1024],
      ['out/report.csv', 'file', 'text/csv', 8],
    ]);
    expect(Buffer.from(art(r)[3]!.data).toString()).toBe('a,b\n1,2\n');
    expect(Buffer.from(art(r)[2]!.data).equals(Buffer.from(Array.from({ length: 2 * 1024 * 1024 }, (_, i) => i % 256)))).toBe(true);
    expect(art(r)[1]!.width).toBeGreaterThan(0);
  });

  it('refuses a forged display frame and a 20000 px image with reasons; the run and its later output survive', async () => {
    const r = await run(`
import base64, struct, zlib, _sandbar_artifacts as a
def png_header(w, h):
    ihdr = struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)
    return b'\\x89PNG\\r\\n\\x1a\\n' + struct.pack('>I', 13) + b'IHDR' + ihdr + struct.pack('>I', zlib.crc32(b'IHDR' + ihdr))
print('before')
a._send({'type': 'display', 'mime': 'image/png', 'source': 'display', 'data': base64.b64encode(b'GIF89a not a png').decode()})
a._send({'type': 'display', 'mime': 'image/png', 'source': 'figure', 'data': base64.b64encode(png_header(20000, 20000)).decode()})
a._send({'type': 'display', 'mime': 'image/png', 'data': 12345})
a._send({'type': 'file', 'name': '../../etc/passwd', 'offset': 0, 'data': 'AAAA', 'last': True})
import matplotlib.pyplot as plt
plt.plot([1]); plt.show()
print('after')
`);
    expect(r.stdout).toBe('before\nafter\n');
    expect(r.stderr).toBe('');
    expect(r.refusedArtifacts).toEqual([
      { name: 'display-1.png', source: 'display', reason: 'not a PNG or JPEG image (bad magic bytes)' },
      { name: 'figure-1.png', source: 'figure', reason: '20000×20000 px is over the 8000 px edge models accept' },
      { name: 'display-2.png', source: 'display', reason: 'the sandbox sent no image data' },
      { name: '../../etc/passwd', source: 'file', reason: 'not a valid artifact name' },
    ]);
    expect(art(r).map((a) => a.name)).toEqual(['figure-2.png']);
  });

  it('holds files to the count cap, naming each file left out', async () => {
    const capped = await startEngine({ artifactCaps: { imageCapBytes: 350_000, maxFiles: 2, maxBytes: 1024 } });
    try {
      const r = await capped.submit({
        code: `
for name in ['a.txt', 'b.txt', 'c.txt']:
    open('out/' + name, 'w').write(name)
open('out/d-big.txt', 'w').write('x' * 5000)
`,
      }).result;
      expect(r.exitReason, r.stderr).toBe('success');
      expect(art(r).map((a) => a.name)).toEqual(['out/a.txt', 'out/b.txt']);
      expect(r.refusedArtifacts?.map((x) => x.name)).toEqual(['out/c.txt', 'out/d-big.txt']);
      expect(r.refusedArtifacts?.[0]!.reason).toContain('over the limit of 2 files per run (artifactMaxFiles)');
    } finally {
      await capped.dispose();
    }
  });
});
