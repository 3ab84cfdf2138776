// The warm pool's sizing policy alone (pure, clock passed in): bounds from settings, the memory bound,
// the target between min and max following the recent peak, bounded starts, and the peak's window.
import { describe, expect, it } from 'vitest';
import { enginePoolBounds } from '../../../electron/sandbox/engine-config.js';
import { DEFAULT_POOL_MAX, DemandWindow, memoryCap, poolBounds, poolTarget, RateWindow, startsNeeded } from '../../../electron/sandbox/pool-policy.js';

const GiB = 1024 ** 3;

describe('pool policy', () => {
  it('reads the settings as bounds: null grows to the default, poolSize 0 with null is off, an explicit max wins', () => {
    expect(poolBounds(2, null)).toEqual({ min: 2, max: DEFAULT_POOL_MAX });
    expect(poolBounds(12, null)).toEqual({ min: 12, max: 12 });
    expect(poolBounds(0, null)).toEqual({ min: 0, max: 0 });
    expect(poolBounds(0, 4)).toEqual({ min: 0, max: 4 });
    expect(poolBounds(3, 3)).toEqual({ min: 3, max: 3 });
  });

  it('gives the engine a fixed pool without poolMax (tests, tools) and for a one-shot command, else the settings\' bounds', () => {
    expect(enginePoolBounds({ poolSize: 2 }, false)).toEqual({ size: 2, max: 2 });
    expect(enginePoolBounds({ poolSize: 2, poolMax: null }, true)).toEqual({ size: 2, max: 2 });
    expect(enginePoolBounds({ poolSize: 2, poolMax: null }, false)).toEqual({ size: 2, max: DEFAULT_POOL_MAX });
    expect(enginePoolBounds({ poolSize: 0, poolMax: null }, false)).toEqual({ size: 0, max: 0 });
    expect(enginePoolBounds({ poolSize: 1, poolMax: 3 }, false)).toEqual({ size: 1, max: 3 });
  });

  it('bounds growth by memory: half the host over the per-container limit, at least one', () => {
    expect(memoryCap(8 * GiB, '512m')).toBe(8);
    expect(memoryCap(1 * GiB, '2g')).toBe(1);
    expect(memoryCap(8 * GiB, 'not a size')).toBe(1);
  });

  it('keeps min always, follows the peak (with min to spare) up to max and memory, and never below min', () => {
    const bounds = { min: 2, max: 8 };
    expect(poolTarget(bounds, 0, 100)).toBe(2);
    expect(poolTarget(bounds, 1, 100)).toBe(3);
    expect(poolTarget(bounds, 5, 100)).toBe(7);
    expect(poolTarget(bounds, 20, 100)).toBe(8);
    expect(poolTarget(bounds, 20, 3)).toBe(3);
    expect(poolTarget({ min: 4, max: 8 }, 20, 1)).toBe(4);
    expect(poolTarget({ min: 0, max: 0 }, 20, 100)).toBe(0);
  });

  it('starts what is missing for the target and the waiting calls, no more than `parallel` at once', () => {
    expect(startsNeeded({ target: 8, slots: 2, waiting: 0, booting: 0, parallel: 2 })).toBe(2);
    expect(startsNeeded({ target: 8, slots: 2, waiting: 0, booting: 1, parallel: 4 })).toBe(3);
    expect(startsNeeded({ target: 2, slots: 0, waiting: 6, booting: 0, parallel: 16 })).toBe(8);
    expect(startsNeeded({ target: 2, slots: 5, waiting: 0, booting: 0, parallel: 2 })).toBe(0);
    expect(startsNeeded({ target: 2, slots: 2, waiting: 1, booting: 2, parallel: 2 })).toBe(0);
  });

  it('remembers the peak of concurrent calls for a window, then forgets it', () => {
    const w = new DemandWindow(1000);
    expect(w.peak(0)).toBe(0);
    expect(w.nextChangeAt(0)).toBeNull();
    w.record(0, 1);
    w.record(100, 8);
    w.record(200, 3);
    expect(w.peak(300)).toBe(8);
    expect(w.nextChangeAt(300)).toBe(1100);
    // The 8 leaves the window; the later 3 is still in it.
    expect(w.peak(1150)).toBe(3);
    expect(w.peak(1250)).toBe(0);
  });

  it('counts refills over the last minute', () => {
    const r = new RateWindow(60_000);
    r.add(0);
    r.add(30_000);
    expect(r.count(59_000)).toBe(2);
    expect(r.count(61_000)).toBe(1);
  });
});
