// Fan-out on the real runtime: a batch of 8 runs at once all succeed, each in its own container (never
// reused: names differ and /tmp state does not carry over), the pool grows to the batch's peak after it
// and shrinks back when quiet (seen in the pool's state), and nothing is left behind.
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/sandbox/engine.js';
import type { EngineEvent } from '../../../shared/execution.js';
import { containersOf, sandbox, startEngine, waitFor } from '../helpers.js';

const MARK = `import os, glob
seen = glob.glob("/tmp/sandbar-fanout-*")
open(f"/tmp/sandbar-fanout-{os.getpid()}-{id(seen)}", "w").write("x")
print(len(seen))`;

describe.skipIf(!sandbox.available)('pool fan-out', () => {
  const engines: Engine[] = [];
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.dispose()));
  });

  it('runs 8 at once in 8 fresh containers, grows to the peak, shrinks when quiet, leaves none', async () => {
    const engine = await startEngine({ poolSize: 1, poolMax: 8, concurrency: 8 }, { poolPeakWindowMs: 6000 });
    engines.push(engine);
    expect(await waitFor(() => engine.snapshot().pool.ready === 1, 30_000)).toBe(true);
    const started: Extract<EngineEvent, { type: 'started' }>[] = [];
    engine.subscribe((e) => e.type === 'started' && started.push(e));

    const results = await Promise.all(Array.from({ length: 8 }, () => engine.submit({ code: MARK }).result));
    expect(results.map((r) => r.exitReason)).toEqual(Array(8).fill('success'));
    // No run saw another's /tmp file: each had a fresh container.
    expect(results.map((r) => r.stdout)).toEqual(Array(8).fill('0\n'));
    expect(new Set(results.map((r) => r.containerName)).size).toBe(8);
    // None started a cold container of its own: the ones beyond the pool waited for pooled ones.
    expect(started.map((e) => e.warm)).toEqual(Array(8).fill(true));

    // The pool now keeps the batch's peak ready, none of them a container that served a run.
    expect(engine.snapshot().pool).toMatchObject({ size: 8, min: 1, max: 8 });
    expect(await waitFor(() => engine.snapshot().pool.ready === 8, 120_000, 250)).toBe(true);
    const idle = containersOf(engine.owner.instanceId);
    for (const r of results) expect(idle).not.toContain(r.containerName);
    expect(engine.snapshot().pool.refillsPerMin).toBeGreaterThanOrEqual(8);

    // Quiet for the peak's window: back to poolSize.
    expect(await waitFor(() => engine.snapshot().pool.size === 1 && engine.snapshot().pool.ready === 1, 60_000, 250)).toBe(true);
    expect(await waitFor(() => containersOf(engine.owner.instanceId).length === 1, 30_000, 250)).toBe(true);

    await engine.dispose();
    expect(await waitFor(() => containersOf(engine.owner.instanceId).length === 0, 30_000, 250)).toBe(true);
  }, 300_000);
});
