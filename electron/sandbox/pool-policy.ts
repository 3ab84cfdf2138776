// The warm pool's sizing policy, pure (no timers, no clock: `now` is passed in), so it is tested alone.
// The pool keeps at least `min` containers ready, grows toward the recent peak of concurrent calls plus
// `min` to spare (a batch of 8 finds 8 ready next time, and the call right after it one more), never past
// `max` nor what memory allows, and falls back to `min`
// when no call came for a whole window. How many to start at once is bounded too: on a small machine
// starting more than a few containers at once only makes each of them slower (the starts are CPU-bound),
// so a call beyond the pool waits for the next container to come ready instead of starting its own.
import { parseSize } from '../../shared/limits.js';

export interface PoolBounds {
  /** Always kept ready (setting poolSize); 0 with max 0 turns the pool off. */
  min: number;
  /** The most it grows to under load (setting poolMax). */
  max: number;
}

/** Growth when the setting poolMax is null: up to this many (a batch of 8 and 2 to spare), or poolSize if larger. */
export const DEFAULT_POOL_MAX = 10;
/** How long a peak of demand keeps the pool grown: a quiet window this long shrinks it to `min`. */
export const PEAK_WINDOW_MS = 60_000;
/** Of the host's memory, the share idle pool containers' memory limits may add up to beyond `min`. */
export const MEMORY_SHARE = 0.5;

/** The bounds settings mean: poolMax null grows to DEFAULT_POOL_MAX, unless poolSize 0 turned the pool off. */
export function poolBounds(poolSize: number, poolMax: number | null | undefined): PoolBounds {
  if (poolMax === null || poolMax === undefined) return { min: poolSize, max: poolSize === 0 ? 0 : Math.max(poolSize, DEFAULT_POOL_MAX) };
  return { min: poolSize, max: Math.max(poolSize, poolMax) };
}

/** How many containers of this memory limit fit in the share of host memory the pool may use (at least 1). */
export function memoryCap(hostMemoryBytes: number, memoryLimit: string, share = MEMORY_SHARE): number {
  let per: number;
  try {
    per = parseSize(memoryLimit);
  } catch {
    return 1;
  }
  return per > 0 ? Math.max(1, Math.floor((hostMemoryBytes * share) / per)) : 1;
}

/**
 * Containers to keep ready: the recent peak of concurrent calls plus `min` to spare (a batch takes them
 * all; the calls right after it should not wait for its refill), within the bounds and memory; `min` always.
 */
export function poolTarget(bounds: PoolBounds, peak: number, memCap: number): number {
  if (bounds.max === 0) return 0;
  const grown = Math.min(peak > 0 ? peak + bounds.min : bounds.min, bounds.max, memCap);
  return Math.max(bounds.min, grown);
}

/**
 * How many container starts to begin now. `slots`: ready or booting, not yet handed out; `waiting`: calls
 * that found none ready and wait for the next one; `booting`: starts in flight; `parallel`: the most at once.
 */
export function startsNeeded(state: { target: number; slots: number; waiting: number; booting: number; parallel: number }): number {
  const missing = state.target + state.waiting - state.slots;
  return Math.max(0, Math.min(missing, state.parallel - state.booting));
}

/** Concurrent calls seen lately: each call records how many were in flight with it; the peak is over a window. */
export class DemandWindow {
  private samples: { at: number; concurrent: number }[] = [];

  constructor(private readonly windowMs = PEAK_WINDOW_MS) {}

  record(at: number, concurrent: number): void {
    this.prune(at);
    // Only a sample higher than every later one can be the peak later on: keep a falling staircase.
    while (this.samples.length > 0 && this.samples.at(-1)!.concurrent <= concurrent) this.samples.pop();
    this.samples.push({ at, concurrent });
  }

  peak(now: number): number {
    this.prune(now);
    return this.samples[0]?.concurrent ?? 0;
  }

  /** When the current peak leaves the window (the pool may shrink then), or null when nothing is recorded. */
  nextChangeAt(now: number): number | null {
    this.prune(now);
    const first = this.samples[0];
    return first ? first.at + this.windowMs : null;
  }

  private prune(now: number): void {
    while (this.samples.length > 0 && now - this.samples[0]!.at >= this.windowMs) this.samples.shift();
  }
}

/** Containers made ready in the last minute (Health's refill rate). */
export class RateWindow {
  private readonly times: number[] = [];

  constructor(private readonly windowMs = 60_000) {}

  add(at: number): void {
    this.times.push(at);
    this.prune(at);
  }

  count(now: number): number {
    this.prune(now);
    return this.times.length;
  }

  private prune(now: number): void {
    while (this.times.length > 0 && now - this.times[0]! >= this.windowMs) this.times.shift();
  }
}
