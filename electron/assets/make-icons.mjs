// Regenerates the tray icons (tray-{ready,busy,broken}.png at 16 px and @2x at 32 px) and the 512 px app
// icon used for packaging. No image library: shapes are drawn with 4x4 supersampling and written as PNG
// with node:zlib. Run: node electron/assets/make-icons.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const OUT = fileURLToPath(new URL('./', import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** RGBA pixels (size*size*4, straight alpha) to PNG bytes. */
function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

/**
 * Paints layers in order. Each layer is { inside(x, y) → boolean, color(x, y) → [r,g,b] } over
 * coordinates in 0..1; coverage comes from 4x4 samples per pixel, composited with "over".
 */
function render(size, layers) {
  const out = Buffer.alloc(size * size * 4);
  const S = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const x = (px + (sx + 0.5) / S) / size;
          const y = (py + (sy + 0.5) / S) / size;
          // Per sample: the topmost layer that covers it wins (layers are opaque).
          let color = null;
          for (const layer of layers) if (layer.inside(x, y)) color = layer.color(x, y);
          if (color) {
            r += color[0]; g += color[1]; b += color[2]; a += 1;
          }
        }
      }
      const i = (py * size + px) * 4;
      if (a > 0) {
        out[i] = Math.round(r / a);
        out[i + 1] = Math.round(g / a);
        out[i + 2] = Math.round(b / a);
      }
      out[i + 3] = Math.round((a / (S * S)) * 255);
    }
  }
  return out;
}

const circle = (cx, cy, radius) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
const solid = (h) => () => hex(h);

/** A status dot with a darker rim, readable on light and dark menu bars. */
function dot(size, fill, rim) {
  return render(size, [
    { inside: circle(0.5, 0.5, 0.4), color: solid(rim) },
    { inside: circle(0.5, 0.5, 0.4 - 1.25 / 16), color: solid(fill) },
  ]);
}

const TRAY = {
  ready: ['#2fb36b', '#1b6e41'],
  busy: ['#f2a93b', '#9a6310'],
  broken: ['#e5484d', '#8c1d22'],
};

for (const [state, [fill, rim]] of Object.entries(TRAY)) {
  writeFileSync(`${OUT}tray-${state}.png`, png(16, dot(16, fill, rim)));
  writeFileSync(`${OUT}tray-${state}@2x.png`, png(32, dot(32, fill, rim)));
}

/** The app icon: a rounded square of sea with a sandbar across it and the ready dot. */
function appIcon(size) {
  const radius = 0.2;
  const roundedSquare = (x, y) => {
    const m = 0.04;
    if (x < m || x > 1 - m || y < m || y > 1 - m) return false;
    const cx = Math.min(Math.max(x, m + radius), 1 - m - radius);
    const cy = Math.min(Math.max(y, m + radius), 1 - m - radius);
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
  };
  const sea = ([r1, g1, b1], [r2, g2, b2]) => (_x, y) => [r1 + (r2 - r1) * y, g1 + (g2 - g1) * y, b1 + (b2 - b1) * y].map(Math.round);
  const bar = (x, y) => ((x - 0.5) / 0.36) ** 2 + ((y - 0.64) / 0.085) ** 2 <= 1;
  const wave = (x, y) => x > 0.22 && x < 0.78 && Math.abs(y - (0.4 + 0.03 * Math.sin((x - 0.22) * Math.PI * 4))) < 0.022;
  return render(size, [
    { inside: roundedSquare, color: sea(hex('#1f7fb0'), hex('#0c3552')) },
    { inside: wave, color: solid('#cfe8f5') },
    { inside: bar, color: solid('#e9c987') },
    { inside: circle(0.74, 0.26, 0.075), color: solid(TRAY.ready[0]) },
  ]);
}

writeFileSync(`${OUT}icon.png`, png(512, appIcon(512)));
console.log(`icons written to ${OUT}`);
