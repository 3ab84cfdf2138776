// What an image claims to be, read from its header alone: the PNG signature and IHDR chunk, or the JPEG
// SOI and the first SOF marker. The host never decodes pixels from a sandbox; it keeps an image only when
// these few bytes say what it is and how large it is.

export type ImageHeader =
  | { ok: true; mimeType: 'image/png' | 'image/jpeg'; width: number; height: number }
  | { ok: false; reason: string };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Start-of-frame markers (baseline, extended, progressive, lossless, hierarchical, arithmetic); not DHT (C4), JPG (C8), DAC (CC). */
const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

export function readImageHeader(data: Uint8Array): ImageHeader {
  if (PNG_SIGNATURE.every((b, i) => data[i] === b)) return pngHeader(data);
  if (data[0] === 0xff && data[1] === 0xd8) return jpegHeader(data);
  return { ok: false, reason: 'not a PNG or JPEG image (bad magic bytes)' };
}

function u32(data: Uint8Array, at: number): number {
  return ((data[at]! << 24) >>> 0) + (data[at + 1]! << 16) + (data[at + 2]! << 8) + data[at + 3]!;
}

function u16(data: Uint8Array, at: number): number {
  return (data[at]! << 8) + data[at + 1]!;
}

function pngHeader(data: Uint8Array): ImageHeader {
  // Signature (8), then the first chunk must be IHDR: length 13, type, width, height, ...
  if (data.length < 33) return { ok: false, reason: 'truncated PNG (no complete IHDR chunk)' };
  const type = String.fromCharCode(data[12]!, data[13]!, data[14]!, data[15]!);
  if (u32(data, 8) !== 13 || type !== 'IHDR') return { ok: false, reason: 'malformed PNG (the first chunk is not IHDR)' };
  return sized('image/png', u32(data, 16), u32(data, 20));
}

function jpegHeader(data: Uint8Array): ImageHeader {
  let i = 2;
  while (i + 1 < data.length) {
    if (data[i] !== 0xff) return { ok: false, reason: 'malformed JPEG (expected a marker)' };
    const marker = data[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte before a marker
      continue;
    }
    // Markers without a length: TEM, SOI, RSTn.
    if (marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return { ok: false, reason: 'malformed JPEG (no frame header before the image data)' };
    if (i + 4 > data.length) break;
    const length = u16(data, i + 2);
    if (length < 2) return { ok: false, reason: 'malformed JPEG (bad segment length)' };
    if (JPEG_SOF.has(marker)) {
      if (length < 7 || i + 9 > data.length) break;
      return sized('image/jpeg', u16(data, i + 7), u16(data, i + 5));
    }
    i += 2 + length;
  }
  return { ok: false, reason: 'truncated JPEG (no frame header)' };
}

function sized(mimeType: 'image/png' | 'image/jpeg', width: number, height: number): ImageHeader {
  if (width === 0 || height === 0) return { ok: false, reason: `malformed ${mimeType === 'image/png' ? 'PNG' : 'JPEG'} (zero width or height)` };
  return { ok: true, mimeType, width, height };
}
