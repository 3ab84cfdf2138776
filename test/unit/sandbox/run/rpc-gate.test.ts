// The host's bound on one run's calls: count and bytes in flight, one oversized call still admitted alone,
// a waiting room of one more budget, and refusal beyond it (only code that bypassed the agent gets there).
import { describe, expect, it } from 'vitest';
import { RpcGate } from '../../../../electron/sandbox/run/rpc-gate.js';

function setup(limits = { maxInFlight: 3, maxBytes: 100 }) {
  const gate = new RpcGate(limits);
  const started: number[] = [];
  const finishers = new Map<number, () => void>();
  const submit = (n: number, bytes: number, answerBytes = 0) =>
    gate.submit(bytes, (hold) => {
      if (answerBytes) hold(answerBytes);
      started.push(n);
      return new Promise<void>((resolve) => finishers.set(n, resolve));
    });
  const finish = async (n: number) => {
    finishers.get(n)!();
    await new Promise((r) => setImmediate(r));
  };
  return { gate, started, submit, finish };
}

describe('RpcGate', () => {
  it('admits up to maxInFlight calls, queues as many again, and refuses the rest', async () => {
    const { gate, started, submit, finish } = setup();
    const accepted = Array.from({ length: 7 }, (_, i) => submit(i + 1, 1));
    expect(accepted).toEqual([true, true, true, true, true, true, false]);
    expect(started).toEqual([1, 2, 3]);
    expect(gate.stats).toEqual({ inFlight: 3, bytes: 3, waiting: 3 });
    await finish(1);
    expect(started).toEqual([1, 2, 3, 4]);
    for (const n of [2, 3, 4, 5]) await finish(n);
    expect(started).toEqual([1, 2, 3, 4, 5, 6]);
    await finish(6);
    expect(gate.stats).toEqual({ inFlight: 0, bytes: 0, waiting: 0 });
  });

  it('holds to the byte budget, counting answers until the sandbox took them', async () => {
    const { gate, started, submit, finish } = setup({ maxInFlight: 16, maxBytes: 100 });
    submit(1, 40, 50);
    submit(2, 20);
    // 40 + 50 held, and 20 more would pass the 100-byte budget: the second call waits.
    expect(gate.stats).toEqual({ inFlight: 1, bytes: 90, waiting: 1 });
    expect(started).toEqual([1]);
    await finish(1);
    expect(started).toEqual([1, 2]);
    expect(gate.stats.bytes).toBe(20);
  });

  it('lets one oversized call in when nothing else runs, and one oversized call wait', async () => {
    const { started, submit, finish } = setup({ maxInFlight: 16, maxBytes: 100 });
    expect(submit(1, 500)).toBe(true);
    expect(submit(2, 500)).toBe(true);
    expect(submit(3, 10)).toBe(false);
    expect(started).toEqual([1]);
    await finish(1);
    expect(started).toEqual([1, 2]);
  });

  it('starts and accepts nothing once closed', async () => {
    const { gate, started, submit, finish } = setup({ maxInFlight: 1, maxBytes: 100 });
    submit(1, 1);
    submit(2, 1);
    gate.close();
    await finish(1);
    expect(submit(3, 1)).toBe(false);
    expect(started).toEqual([1]);
  });
});
