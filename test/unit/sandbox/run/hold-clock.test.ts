// The run clock with holds: held time stops it only up to the budget, and the deadline never passes the
// wall cap (timeout + budget) whatever the holds.
import { describe, expect, it } from 'vitest';
import { HoldClock } from '../../../../electron/sandbox/run/hold-clock.js';

function clock(timeoutMs: number, maxHeldMs: number) {
  let now = 1_000;
  const c = new HoldClock(timeoutMs, maxHeldMs, () => now);
  c.start();
  return { c, tick: (ms: number) => (now += ms), at: () => now };
}

describe('HoldClock', () => {
  it('without holds, the deadline is the timeout', () => {
    const { c } = clock(5_000, 120_000);
    expect(c.deadline()).toBe(6_000);
    expect(c.wallCap()).toBe(126_000);
  });

  it('a hold moves the deadline by the time held; while held it sits on the wall cap', () => {
    const { c, tick } = clock(5_000, 120_000);
    tick(1_000);
    const release = c.hold();
    expect(c.holding).toBe(true);
    expect(c.deadline()).toBe(c.wallCap());
    tick(10_000);
    release();
    expect(c.holding).toBe(false);
    expect(c.heldMs()).toBe(10_000);
    expect(c.deadline()).toBe(6_000 + 10_000);
  });

  it('held time past the budget runs the clock: repeated holds never reach past the cap', () => {
    const { c, tick } = clock(5_000, 8_000);
    for (let i = 0; i < 5; i++) {
      const release = c.hold();
      tick(3_000);
      release();
      tick(100);
    }
    expect(c.heldMs()).toBe(15_000);
    expect(c.creditedMs()).toBe(8_000);
    expect(c.deadline()).toBe(1_000 + 5_000 + 8_000);
    expect(c.deadline()).toBeLessThanOrEqual(c.wallCap());
  });

  it('overlapping holds stop the clock once; releasing twice is harmless', () => {
    const { c, tick } = clock(5_000, 60_000);
    const a = c.hold();
    tick(1_000);
    const b = c.hold();
    tick(1_000);
    a();
    a();
    expect(c.holding).toBe(true);
    tick(1_000);
    b();
    expect(c.heldMs()).toBe(3_000);
  });
});
