// Slider scales for the Limits form: sizes and times move along useful steps (roughly logarithmic), while
// the text box beside each slider accepts any exact value.
import { formatBytes, parseSize } from '../../../shared/limits.js';
import type { SliderScale } from '../../components/slider-scale.js';
import { parseNumberText } from './limits-form.js';

/** A slider over a list of values; a typed value sits at the nearest one. */
export function presetScale(values: readonly number[], toText: (n: number) => string, fromText: (t: string) => number | null, describe?: (n: number) => string): SliderScale {
  const nearest = (n: number) => {
    let best = 0;
    for (let i = 1; i < values.length; i++) {
      if (Math.abs(Math.log(values[i]! || 1e-9) - Math.log(n || 1e-9)) < Math.abs(Math.log(values[best]! || 1e-9) - Math.log(n || 1e-9))) best = i;
    }
    return best;
  };
  return {
    min: 0,
    max: values.length - 1,
    step: 1,
    toPosition: (text) => {
      const n = fromText(text);
      return n === null || !Number.isFinite(n) ? null : nearest(n);
    },
    fromPosition: (i) => toText(values[i]!),
    describe: (i) => (describe ?? toText)(values[i]!),
  };
}

export function linearScale(min: number, max: number): SliderScale {
  return {
    min,
    max,
    step: 1,
    toPosition: (text) => {
      const n = parseNumberText(text);
      return Number.isFinite(n) ? Math.round(n) : null;
    },
    fromPosition: (n) => String(n),
  };
}

const MIB = 1024 ** 2;
const sizeText = (mib: number) => (mib % 1024 === 0 ? `${mib / 1024}g` : `${mib}m`);
const sizeMiB = (text: string) => {
  try {
    return parseSize(text) / MIB;
  } catch {
    return null;
  }
};
const plainNumber = (t: string) => {
  const n = parseNumberText(t);
  return Number.isFinite(n) ? n : null;
};

export const memoryScale = presetScale([32, 64, 128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384], sizeText, sizeMiB, (m) => formatBytes(m * MIB));

export const pidsScale = presetScale([16, 32, 64, 128, 256, 512, 1024, 2048, 4096], String, plainNumber);

/** Position 0 is "all host CPUs" (an empty box). */
export const cpusScale = presetScale(
  [0, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 12, 16],
  (n) => (n === 0 ? '' : String(n)),
  (t) => (t.trim() === '' ? 0 : plainNumber(t)),
  (n) => (n === 0 ? 'all host CPUs' : `${n} CPUs`),
);

const TIMES = [5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800, 3600];
export const timeoutScale = presetScale(TIMES, String, plainNumber, (s) => `${s} seconds`);

export const outputCapScale = presetScale([64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144], String, plainNumber, (k) => formatBytes(k * 1024));

export const concurrencyScale = linearScale(1, 16);
export const queueScale = presetScale([0, 4, 8, 16, 32, 64, 128, 256, 512, 1024], String, plainNumber);
export const poolScale = linearScale(0, 16);

export const poolMaxScale = linearScale(0, 64);

export const packageCacheScale = presetScale([256, 512, 1024, 2048, 4096, 8192, 16384, 32768], String, plainNumber);

export const egressConnectionsScale = presetScale([8, 16, 32, 64, 128, 256, 512, 1024, 4096, 10000], String, plainNumber);
export const egressBytesScale = presetScale([1, 16, 64, 128, 256, 512, 1024, 4096, 16384], String, plainNumber, (m) => formatBytes(m * MIB));
