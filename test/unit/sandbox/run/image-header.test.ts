// The host's only look at an image from a sandbox: magic bytes and the PNG IHDR / JPEG SOF size.
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readImageHeader } from '../../../../electron/sandbox/run/image-header.js';

function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const body = Buffer.concat([Buffer.from('IHDR'), ihdr]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from([0, 0, 0, 13]), body, crc]);
}

/** A segment: FF marker, 2-byte length (counting itself), payload. */
function segment(marker: number, payload: number[]): number[] {
  const length = payload.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...payload];
}

function sof(marker: number, width: number, height: number): number[] {
  return segment(marker, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
}

const SOI = [0xff, 0xd8];
const APP0 = segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
const DQT = segment(0xdb, [0, ...new Array<number>(64).fill(1)]);
const DHT = segment(0xc4, [0, ...new Array<number>(16).fill(0)]);
const SOS = segment(0xda, [1, 1, 0, 0, 0x3f, 0]);

describe('readImageHeader', () => {
  it('reads a PNG size from IHDR', () => {
    expect(readImageHeader(png(1200, 800))).toEqual({ ok: true, mimeType: 'image/png', width: 1200, height: 800 });
    expect(readImageHeader(png(20000, 3))).toEqual({ ok: true, mimeType: 'image/png', width: 20000, height: 3 });
    expect(readImageHeader(png(2 ** 32 - 1, 1))).toMatchObject({ ok: true, width: 2 ** 32 - 1 });
  });

  it('reads a JPEG size from the first SOF, whichever kind, past APPn, DQT, DHT and fill bytes', () => {
    for (const marker of [0xc0, 0xc1, 0xc2, 0xc3, 0xc9, 0xcf]) {
      const jpeg = Buffer.from([...SOI, ...APP0, 0xff, ...DQT, ...DHT, ...sof(marker, 640, 480), ...SOS, 1, 2, 3, 0xff, 0xd9]);
      expect(readImageHeader(jpeg), marker.toString(16)).toEqual({ ok: true, mimeType: 'image/jpeg', width: 640, height: 480 });
    }
  });

  it('does not take DHT (C4), JPG (C8) or DAC (CC) for a frame header', () => {
    const notSof = (marker: number) => segment(marker, [8, 0, 10, 0, 20, 0, 0]);
    const jpeg = Buffer.from([...SOI, ...notSof(0xc4), ...notSof(0xc8), ...notSof(0xcc), ...sof(0xc0, 33, 44)]);
    expect(readImageHeader(jpeg)).toEqual({ ok: true, mimeType: 'image/jpeg', width: 33, height: 44 });
  });

  it('refuses forged and truncated headers with a reason', () => {
    const cases: [string, Uint8Array, RegExp][] = [
      ['empty', Buffer.alloc(0), /bad magic/],
      ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00'), /bad magic/],
      ['text claiming to be an image', Buffer.from('<svg></svg>'), /bad magic/],
      ['PNG signature only', png(10, 10).subarray(0, 8), /truncated PNG/],
      ['PNG cut inside IHDR', png(10, 10).subarray(0, 20), /truncated PNG/],
      ['PNG whose first chunk is not IHDR', Buffer.from(png(10, 10)).fill(0x41, 12, 16), /not IHDR/],
      ['PNG of zero width', png(0, 10), /zero width/],
      ['JPEG SOI only', Buffer.from(SOI), /truncated JPEG/],
      ['JPEG cut inside SOF', Buffer.from([...SOI, ...sof(0xc0, 10, 10).slice(0, 7)]), /truncated JPEG/],
      ['JPEG with scan data before any SOF', Buffer.from([...SOI, ...DQT, ...SOS, 1, 2, 3]), /no frame header/],
      ['JPEG with garbage where a marker belongs', Buffer.from([...SOI, 0x12, 0x34, 0x56]), /expected a marker/],
      ['JPEG segment length below 2', Buffer.from([...SOI, 0xff, 0xe0, 0, 1, 0, 0]), /bad segment length/],
      ['JPEG of zero height (DNL)', Buffer.from([...SOI, ...sof(0xc0, 10, 0)]), /zero width or height/],
    ];
    for (const [what, data, reason] of cases) {
      const header = readImageHeader(data);
      expect(header.ok, what).toBe(false);
      if (!header.ok) expect(header.reason, what).toMatch(reason);
    }
  });

  it('reads only the header: a huge claimed size costs nothing and garbage after it is never looked at', () => {
    const forged = Buffer.concat([png(60000, 60000), Buffer.alloc(16, 0xee)]);
    expect(readImageHeader(forged)).toEqual({ ok: true, mimeType: 'image/png', width: 60000, height: 60000 });
  });
});
