// Small helpers for benchmark figures.
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const ms = (n: number): string => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

export const sleep = (millis: number) => new Promise((r) => setTimeout(r, millis));

export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}
