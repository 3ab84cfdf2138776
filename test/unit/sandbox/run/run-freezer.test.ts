// Freezing a run's container: one operation at a time, the latest wish wins, a short hold costs nothing,
// a failed pause is not tried again, and the end always thaws.
import { describe, expect, it } from 'vitest';
import { RunFreezer } from '../../../../electron/sandbox/run/run-freezer.js';

const flush = (ms = 0) => new Promise((r) => setTimeout(r, ms));

function recorder(fail?: 'pause' | 'resume') {
  const ops: string[] = [];
  let gate: (() => void) | null = null;
  let slow = false;
  const op = async (o: 'pause' | 'resume') => {
    ops.push(o);
    if (slow) await new Promise<void>((r) => (gate = r));
    if (o === fail) throw new Error(`${o} is not supported`);
  };
  return { ops, op, slowDown: () => (slow = true), open: () => gate?.() };
}

describe('RunFreezer', () => {
  it('pauses after the delay and resumes when the wish changes', async () => {
    const r = recorder();
    const f = new RunFreezer(r.op, 10);
    f.set(true);
    expect(r.ops).toEqual([]);
    await flush(30);
    expect(r.ops).toEqual(['pause']);
    expect(f.isFrozen).toBe(true);
    f.set(false);
    await flush();
    expect(r.ops).toEqual(['pause', 'resume']);
    expect(f.isFrozen).toBe(false);
    expect(f.freezes).toBe(1);
  });

  it('a hold shorter than the delay never pauses', async () => {
    const r = recorder();
    const f = new RunFreezer(r.op, 20);
    f.set(true);
    await flush(5);
    f.set(false);
    await flush(40);
    expect(r.ops).toEqual([]);
  });

  it('serialises operations: a change during a slow pause is applied after it', async () => {
    const r = recorder();
    r.slowDown();
    const f = new RunFreezer(r.op, 0);
    f.set(true);
    await flush(5);
    f.set(false);
    f.set(true);
    f.set(false);
    expect(r.ops).toEqual(['pause']);
    r.open();
    await flush(5);
    r.open();
    await flush(5);
    expect(r.ops).toEqual(['pause', 'resume']);
    expect(f.isFrozen).toBe(false);
  });

  it('a failed pause is reported and not tried again', async () => {
    const r = recorder('pause');
    const f = new RunFreezer(r.op, 0);
    f.set(true);
    await flush(5);
    f.set(false);
    f.set(true);
    await flush(5);
    expect(r.ops).toEqual(['pause']);
    expect(f.unavailable).toBe('pause is not supported');
    expect(new RunFreezer(undefined).unavailable).toBe('this sandbox has no pause');
  });

  it('release thaws a frozen container and nothing freezes it afterwards', async () => {
    const r = recorder();
    const f = new RunFreezer(r.op, 0);
    f.set(true);
    await flush(5);
    await f.release();
    expect(r.ops).toEqual(['pause', 'resume']);
    f.set(true);
    await flush(5);
    expect(r.ops).toEqual(['pause', 'resume']);
  });
});
