// Requests that come before the engine has started: held in order, bounded in number and time, cancellable.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StartGate, type Refusal } from '../../../electron/sandbox/start-gate.js';

const busy = (n: number) => `busy: ${n} waiting`;

describe('StartGate', () => {
  afterEach(() => vi.useRealTimers());

  it('holds requests until open(), then lets them on in arrival order', () => {
    const gate = new StartGate();
    const seen: string[] = [];
    for (const id of ['a', 'b', 'c']) gate.hold(id, 10, undefined, busy, (refusal) => seen.push(refusal ? `${id}:refused` : id));
    expect(seen).toEqual([]);
    expect(gate.isOpen).toBe(false);
    gate.open();
    expect(gate.isOpen).toBe(true);
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('refuses at once as busy past its room, like the queue', () => {
    const gate = new StartGate();
    const refusals: (Refusal | undefined)[] = [];
    for (const id of ['a', 'b', 'c']) gate.hold(id, 2, undefined, busy, (r) => refusals.push(r));
    expect(refusals).toEqual([{ exitReason: 'runtime_error', message: 'busy: 2 waiting' }]);
  });

  it('cancels a request whose signal aborts while it waits, and one already aborted', () => {
    const gate = new StartGate();
    const abort = new AbortController();
    const refusals: (Refusal | undefined)[] = [];
    gate.hold('a', 10, abort.signal, busy, (r) => refusals.push(r));
    abort.abort();
    gate.hold('b', 10, abort.signal, busy, (r) => refusals.push(r));
    gate.open();
    expect(refusals).toEqual([
      { exitReason: 'cancelled', message: 'Execution cancelled before it started' },
      { exitReason: 'cancelled', message: 'Execution cancelled before it started' },
    ]);
  });

  it('gives up on a request after the wait bound, saying why', () => {
    vi.useFakeTimers();
    const gate = new StartGate(5000);
    const refusals: (Refusal | undefined)[] = [];
    gate.hold('a', 10, undefined, busy, (r) => refusals.push(r));
    vi.advanceTimersByTime(4999);
    expect(refusals).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(refusals[0]?.message).toMatch(/^Sandbar is still starting after 5 s/);
    gate.open();
    expect(refusals).toHaveLength(1);
  });

  it('refuses one by id or all at once, each exactly once', () => {
    const gate = new StartGate();
    const settled: string[] = [];
    for (const id of ['a', 'b', 'c']) gate.hold(id, 10, undefined, busy, (r) => settled.push(`${id}:${r?.exitReason ?? 'go'}`));
    expect(gate.refuse('b', { exitReason: 'cancelled', message: 'x' })).toBe(true);
    expect(gate.refuse('b', { exitReason: 'cancelled', message: 'x' })).toBe(false);
    gate.refuseAll({ exitReason: 'cancelled', message: 'shut down' });
    gate.open();
    expect(settled).toEqual(['b:cancelled', 'a:cancelled', 'c:cancelled']);
  });
});
