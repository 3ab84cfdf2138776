// The generated icons exist with the sizes the tray and the packager expect (make-icons.mjs regenerates them).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const assets = fileURLToPath(new URL('../../../electron/assets/', import.meta.url));

function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('electron/assets', () => {
  it.each(['ready', 'busy', 'broken'])('has tray-%s at 16 px and @2x at 32 px', (state) => {
    expect(pngSize(`${assets}tray-${state}.png`)).toEqual({ width: 16, height: 16 });
    expect(pngSize(`${assets}tray-${state}@2x.png`)).toEqual({ width: 32, height: 32 });
  });

  it('has a 512 px app icon for packaging', () => {
    expect(pngSize(`${assets}icon.png`)).toEqual({ width: 512, height: 512 });
  });
});
