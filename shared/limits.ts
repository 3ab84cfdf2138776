// Container limits: one zod schema shared by the engine, the settings and the panel.
import { z } from 'zod';

/** Sizes use the container runtimes' own notation: a number with an optional b/k/m/g suffix. */
export const SizeString = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^\d+(\.\d+)?[bkmg]?$/, 'must be a size such as 512m or 1g');

const UNIT: Record<string, number> = { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

const SIZE_RE = /^(\d+(?:\.\d+)?)([bkmg]?)$/;

export function parseSize(size: string): number {
  const match = SIZE_RE.exec(size.trim().toLowerCase());
  if (!match) throw new Error(`not a size: ${size}`);
  return Math.floor(Number(match[1]) * UNIT[match[2] || 'b']!);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

// zod runs refinements even after the regex failed, so this one must not throw on a malformed size.
const minSize = (min: string, label: string) =>
  SizeString.refine((s) => SIZE_RE.test(s) && parseSize(s) >= parseSize(min), `${label} must be at least ${min}`);

/** Ids above 2^31-1 are not portable (some kernels and runtimes treat them as negative). */
const MAX_ID = 2 ** 31 - 1;

export const LimitsSchema = z
  .object({
    memory: minSize('32m', 'memory').default('512m'),
    pids: z.number().int().min(16, 'must be at least 16').max(65_536, 'must be at most 65536').default(128),
    /** Fractional CPUs (`--cpus`); null leaves the runtime's default (all host CPUs). */
    cpus: z.number().min(0.1, 'must be at least 0.1').max(256, 'must be at most 256').nullable().default(null),
    timeoutSec: z.number().int().min(1, 'must be at least 1 second').max(3600, 'must be at most 3600 seconds').default(30),
    maxTimeoutSec: z.number().int().min(1, 'must be at least 1 second').max(3600, 'must be at most 3600 seconds').default(120),
    /** Captured bytes per stream; a run that prints more is stopped with reason output_limit. */
    outputCapBytes: z.number().int().min(1024).max(256 * 1024 ** 2).default(1024 ** 2),
    tmpSize: minSize('1m', 'tmp size').default('64m'),
    workspaceSize: minSize('1m', 'workspace size').default('128m'),
    user: z
      .string()
      .regex(/^\d{1,10}(:\d{1,10})?$/, 'must be a numeric uid or uid:gid')
      .refine((u) => u.split(':').every((id) => Number(id) !== 0), 'the sandbox never runs as root (uid or gid 0)')
      .refine((u) => u.split(':').every((id) => Number(id) <= MAX_ID), `uid and gid must be at most ${MAX_ID}`)
      .default('65534:65534'),
  })
  .refine((l) => l.timeoutSec <= l.maxTimeoutSec, {
    message: 'the default timeout cannot exceed the maximum timeout',
    path: ['timeoutSec'],
  });

export type Limits = z.infer<typeof LimitsSchema>;

export const DEFAULT_LIMITS: Limits = LimitsSchema.parse({});

/** Clamp a requested per-run timeout into [1, maxTimeoutSec] (the reference clamps the same way). */
export function clampTimeout(limits: Limits, requested: number | undefined): number {
  const t = requested ?? limits.timeoutSec;
  return Math.min(Math.max(Math.trunc(t), 1), limits.maxTimeoutSec);
}
