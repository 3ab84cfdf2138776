// The Live view's source, continued: the snapshot and recent runs, and memory sampling (with the same fake
// engine).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from './live-monitor-fake.js';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('LiveMonitor snapshot and recent runs', () => {
  it('keeps at most 20 finished runs, newest first', () => {
    const { engine, monitor } = setup();
    for (let i = 0; i < 25; i++) {
      engine.queue(`r${i}`);
      engine.start(`r${i}`);
      engine.finish(`r${i}`);
    }
    const recent = monitor.snapshot().recent;
    expect(recent.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => `r${24 - i}`));
    // A copy: changing it does not change the monitor.
    recent.length = 0;
    expect(monitor.snapshot().recent).toHaveLength(20);
  });

  it('reports running and queued runs, the pool, the pause and the memory limit in bytes', () => {
    const { engine, monitor } = setup();
    engine.queue('r1');
    engine.queue('r2');
    engine.start('r1');
    engine.paused = true;
    engine.currentConfig = { limits: { memory: '1g' } };
    const snapshot = monitor.snapshot();
    expect(snapshot.running).toEqual([{ ...engine.running[0]!, memoryBytes: null }]);
    expect(snapshot.queued.map((q) => q.id)).toEqual(['r2']);
    expect(snapshot.pool).toEqual(engine.pool);
    expect(snapshot.paused).toBe(true);
    expect(snapshot.memoryLimitBytes).toBe(1024 ** 3);
  });
});

describe('LiveMonitor memory sampling', () => {
  it('samples running containers about once a second and broadcasts by execution id', async () => {
    const { engine, monitor, sample, of } = setup(async (names) => [
      ...names.map((name, i) => ({ name, memoryBytes: (i + 1) * 1_000_000 })),
      { name: 'some-other-container', memoryBytes: 1 },
    ]);
    engine.queue('r1');
    engine.queue('r2');
    engine.start('r1');
    engine.start('r2');
    expect(sample).not.toHaveBeenCalled();
    expect(monitor.snapshot().running.map((r) => r.memoryBytes)).toEqual([null, null]);

    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(1);
    expect(sample).toHaveBeenCalledWith(['sandbar-r1', 'sandbar-r2']);
    expect(of('execution.stats')).toEqual([
      {
        samples: [
          { id: 'r1', memoryBytes: 1_000_000 },
          { id: 'r2', memoryBytes: 2_000_000 },
        ],
      },
    ]);
    const running = monitor.snapshot().running;
    expect(running.find((r) => r.id === 'r1')?.memoryBytes).toBe(1_000_000);
    expect(running.find((r) => r.id === 'r2')?.memoryBytes).toBe(2_000_000);

    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(2);
  });

  it('stops sampling when nothing runs and forgets the finished run’s memory', async () => {
    const { engine, monitor, sample, of } = setup(async (names) => names.map((name) => ({ name, memoryBytes: 42 })));
    engine.queue('r1');
    engine.start('r1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(1);
    engine.finish('r1');

    await vi.advanceTimersByTimeAsync(5000);
    expect(sample).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(of('execution.stats')).toHaveLength(1);

    // A new run starts sampling again, from no sample.
    engine.queue('r2');
    engine.start('r2');
    expect(monitor.snapshot().running[0]?.memoryBytes).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(2);
    expect(sample).toHaveBeenLastCalledWith(['sandbar-r2']);
  });

  it('sends no stats when the runtime reports none of the running containers', async () => {
    const { engine, sample, of } = setup(async () => [{ name: 'unrelated', memoryBytes: 9 }]);
    engine.queue('r1');
    engine.start('r1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(1);
    expect(of('execution.stats')).toEqual([]);
  });

  it('skips a failed sample and tries again on the next tick', async () => {
    let fail = true;
    const { engine, monitor, sample, of } = setup(async (names) => {
      if (fail) throw new Error('runtime busy');
      return names.map((name) => ({ name, memoryBytes: 7 }));
    });
    engine.queue('r1');
    engine.start('r1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(1);
    expect(of('execution.stats')).toEqual([]);
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(of('execution.stats')).toEqual([{ samples: [{ id: 'r1', memoryBytes: 7 }] }]);
    expect(monitor.snapshot().running[0]?.memoryBytes).toBe(7);
  });

  it('does not record a sample that lands after its run finished', async () => {
    let release!: (value: { name: string; memoryBytes: number }[]) => void;
    const { engine, monitor, sample, of } = setup(() => new Promise((resolve) => (release = resolve)));
    engine.queue('r1');
    engine.start('r1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(1);
    engine.finish('r1');
    release([{ name: 'sandbar-r1', memoryBytes: 99 }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(of('execution.stats')).toEqual([]);
    expect(monitor.snapshot().running).toEqual([]);
  });
});
