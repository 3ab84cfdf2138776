// The health monitor: one full probe at a time, onChange per report, and the cheap check that re-probes
// only when the runtime or the image changed state since the last report.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HealthMonitor, type QuickState } from '../../../electron/health/health-monitor.js';
import type { Logger } from '../../../electron/logger.js';
import type { HealthCheck, HealthReport, RuntimeReport } from '../../../shared/health.js';

const RUNTIME: RuntimeReport = {
  name: 'podman',
  path: '/usr/bin/podman',
  version: '5.2.5',
  rootless: true,
  cgroupVersion: 2,
  ociRuntime: 'crun',
  storageDriver: 'overlay',
  availableOciRuntimes: ['crun'],
};

function report(runtime: boolean, image: boolean, checkedAt = 1): HealthReport {
  return {
    ok: runtime && image,
    checkedAt,
    runtime: runtime ? RUNTIME : null,
    image: { name: 'python:3.14-slim', present: image },
    seccomp: 'sandbar',
    enforced: { memory: true, pids: true, network: true, readOnlyRoot: true, capabilities: true, seccomp: true },
    checks: [],
  };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

function setup(options: { collect?: (probe: boolean) => Promise<HealthReport>; quickState?: () => Promise<QuickState> } = {}) {
  const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies Logger;
  const collect = vi.fn(options.collect ?? (async () => report(true, true)));
  const quickState = vi.fn(options.quickState ?? (async () => ({ runtime: true, image: true })));
  const onChange = vi.fn<(report: HealthReport) => void>();
  const monitor = new HealthMonitor({ collect, quickState, onChange, log });
  return { monitor, collect, quickState, onChange, log };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('HealthMonitor.probe', () => {
  it('shares one collect between concurrent probes, with the probe flag set', async () => {
    const pending = deferred<HealthReport>();
    const { monitor, collect, onChange } = setup({ collect: () => pending.promise });
    const a = monitor.probe();
    const b = monitor.probe();
    expect(collect).toHaveBeenCalledTimes(1);
    expect(collect).toHaveBeenCalledWith(true);
    const r = report(true, true, 42);
    pending.resolve(r);
    expect(await a).toEqual({ ...r, probedAt: null });
    expect(await b).toBe(await a);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith(await a);
    expect(monitor.latest).toBe(await a);
  });

  it('runs a new collect once the previous one has finished, and tells onChange about each report', async () => {
    const reports = [report(true, false, 1), report(true, true, 2)];
    const { monitor, collect, onChange } = setup({ collect: async () => reports.shift()! });
    expect(monitor.latest).toBeNull();
    const first = await monitor.probe();
    const second = await monitor.probe();
    expect(collect).toHaveBeenCalledTimes(2);
    expect(first.checkedAt).toBe(1);
    expect(second.checkedAt).toBe(2);
    expect(onChange.mock.calls.map((c) => c[0].checkedAt)).toEqual([1, 2]);
    expect(monitor.latest).toBe(second);
    expect(monitor.latest).toMatchObject({ checkedAt: 2 });
  });

  it('a failed collect rejects every waiter, keeps the old report, and does not block the next probe', async () => {
    const pending = deferred<HealthReport>();
    let call = 0;
    const { monitor, onChange } = setup({ collect: () => (++call === 1 ? pending.promise : Promise.resolve(report(true, true, 7))) });
    const a = monitor.probe();
    const b = monitor.probe();
    pending.reject(new Error('podman hung'));
    await expect(a).rejects.toThrow('podman hung');
    await expect(b).rejects.toThrow('podman hung');
    expect(onChange).not.toHaveBeenCalled();
    expect(monitor.latest).toBeNull();
    expect((await monitor.probe()).checkedAt).toBe(7);
  });
});

describe('HealthMonitor.check', () => {
  it('does nothing before the first report', async () => {
    const { monitor, quickState, collect } = setup({ quickState: async () => ({ runtime: false, image: false }) });
    await monitor.check();
    expect(quickState).not.toHaveBeenCalled();
    expect(collect).not.toHaveBeenCalled();
  });

  it('does not re-probe while the quick state matches the last report', async () => {
    const { monitor, quickState, collect, onChange } = setup({ quickState: async () => ({ runtime: true, image: true }) });
    await monitor.probe();
    await monitor.check();
    await monitor.check();
    expect(quickState).toHaveBeenCalledTimes(2);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('matches a report without runtime or image against a quick state without them', async () => {
    const { monitor, collect } = setup({ collect: async () => report(false, false), quickState: async () => ({ runtime: false, image: false }) });
    await monitor.probe();
    await monitor.check();
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('re-probes when the runtime went away and reports the new state', async () => {
    const reports = [report(true, true, 1), report(false, false, 2)];
    const { monitor, collect, onChange } = setup({ collect: async () => reports.shift()!, quickState: async () => ({ runtime: false, image: false }) });
    await monitor.probe();
    await monitor.check();
    expect(collect).toHaveBeenCalledTimes(2);
    expect(onChange).toHaveBeenCalledTimes(2);
    expect(onChange.mock.calls[1]![0].runtime).toBeNull();
    expect(monitor.latest?.checkedAt).toBe(2);
  });

  it('re-probes when only the image changed (pulled, or removed)', async () => {
    const reports = [report(true, false, 1), report(true, true, 2)];
    const { monitor, collect } = setup({ collect: async () => reports.shift()!, quickState: async () => ({ runtime: true, image: true }) });
    await monitor.probe();
    await monitor.check();
    expect(collect).toHaveBeenCalledTimes(2);
    expect(monitor.latest?.image.present).toBe(true);
  });

  it('treats a quick state that fails as the runtime being gone', async () => {
    const reports = [report(true, true, 1), report(false, false, 2)];
    const { monitor, collect, onChange } = setup({
      collect: async () => reports.shift()!,
      quickState: async () => {
        throw new Error('podman: command not found');
      },
    });
    await monitor.probe();
    await monitor.check();
    expect(collect).toHaveBeenCalledTimes(2);
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ checkedAt: 2, runtime: null }));
  });

  it('a quick state that fails while the runtime was already missing changes nothing', async () => {
    const { monitor, collect } = setup({
      collect: async () => report(false, false),
      quickState: async () => {
        throw new Error('still no podman');
      },
    });
    await monitor.probe();
    await monitor.check();
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('does not check while a probe is running, nor run two checks at once', async () => {
    const quick = deferred<QuickState>();
    let first = true;
    const { monitor, quickState, collect } = setup({
      quickState: () => {
        if (first) {
          first = false;
          return quick.promise;
        }
        return Promise.resolve({ runtime: true, image: true });
      },
    });
    await monitor.probe();
    const probing = monitor.probe();
    await monitor.check();
    expect(quickState).not.toHaveBeenCalled();
    await probing;

    const one = monitor.check();
    const two = monitor.check();
    await two;
    expect(quickState).toHaveBeenCalledTimes(1);
    quick.resolve({ runtime: true, image: true });
    await one;
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('logs a re-probe that fails instead of throwing', async () => {
    let call = 0;
    const { monitor, log } = setup({
      collect: async () => {
        if (++call === 1) return report(true, true);
        throw new Error('probe container failed');
      },
      quickState: async () => ({ runtime: true, image: false }),
    });
    await monitor.probe();
    await expect(monitor.check()).resolves.toBeUndefined();
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('probe container failed'));
  });
});

describe('HealthMonitor start', () => {
  it('probes at once and checks on the interval', async () => {
    vi.useFakeTimers();
    const reports = [report(true, true, 1), report(false, false, 2)];
    let runtime = true;
    const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies Logger;
    const collect = vi.fn(async () => reports.shift()!);
    const onChange = vi.fn();
    const monitor = new HealthMonitor({ collect, quickState: async () => ({ runtime, image: runtime }), onChange, log, intervalMs: 1000 });
    monitor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(collect).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(collect).toHaveBeenCalledTimes(1);
    runtime = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(collect).toHaveBeenCalledTimes(2);
    expect(onChange).toHaveBeenCalledTimes(2);
    monitor.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('HealthMonitor live rows', () => {
  const row = (ready: number): HealthCheck => ({ id: 'pool', label: 'Warm pool and queue', status: 'ok', detail: `Pool ${ready} of 2 containers ready. 0 running, 0 queued` });
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  function live(initial: number) {
    const state = { ready: initial };
    const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies Logger;
    const collect = vi.fn(async () => ({ ...report(true, true, 100), checks: [{ id: 'runtime', label: 'Container runtime', status: 'ok' as const, detail: 'podman' }], probedAt: 100 }));
    const onChange = vi.fn<(r: HealthReport) => void>();
    let clock = 1000;
    const monitor = new HealthMonitor({ collect, live: () => [row(state.ready)], quickState: async () => ({ runtime: true, image: true }), onChange, log, now: () => ++clock });
    return { monitor, collect, onChange, state };
  }

  it('adds the live rows after the collected ones, as they are when the report is made', async () => {
    const { monitor, state } = live(0);
    const first = await monitor.probe();
    expect(first.checks.map((c) => c.id)).toEqual(['runtime', 'pool']);
    expect(first.checks[1]!.detail).toContain('0 of 2');
    expect(first).toMatchObject({ checkedAt: 100, probedAt: 100 });
    state.ready = 2;
    // health.get: the numbers now, without a probe.
    expect(monitor.latest!.checks[1]!.detail).toContain('2 of 2');
  });

  it('pushes a new report when a live row changes, without collecting or probing again', async () => {
    const { monitor, collect, onChange, state } = live(0);
    await monitor.probe();
    state.ready = 1;
    monitor.refresh();
    monitor.refresh();
    state.ready = 2;
    monitor.refresh();
    await tick();
    expect(collect).toHaveBeenCalledTimes(1);
    // One burst, one push, with the state at the end of it.
    expect(onChange).toHaveBeenCalledTimes(2);
    const pushed = onChange.mock.calls[1]![0];
    expect(pushed.checks.find((c) => c.id === 'pool')!.detail).toContain('2 of 2');
    // The probe did not run again: its time stays; the report's own time moved on.
    expect(pushed.probedAt).toBe(100);
    expect(pushed.checkedAt).toBeGreaterThan(1000);
    expect(monitor.latest).toBe(pushed);
  });

  it('stays quiet when nothing it shows changed, and before the first report', async () => {
    const { monitor, onChange } = live(2);
    monitor.refresh();
    await tick();
    expect(onChange).not.toHaveBeenCalled();
    expect(monitor.latest).toBeNull();
    await monitor.probe();
    monitor.refresh();
    await tick();
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('a new probe keeps the live rows and its own time', async () => {
    const { monitor, state } = live(0);
    await monitor.probe();
    state.ready = 2;
    const again = await monitor.probe();
    expect(again.checks.find((c) => c.id === 'pool')!.detail).toContain('2 of 2');
    expect(again.probedAt).toBe(100);
  });

  it('dispose cancels a pending refresh', async () => {
    const { monitor, onChange, state } = live(0);
    await monitor.probe();
    state.ready = 2;
    monitor.refresh();
    monitor.dispose();
    await tick();
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});

describe('HealthMonitor measured rows (the package cache)', () => {
  const packages = (layers: number): HealthCheck => ({ id: 'packages', label: 'Packages', status: 'ok', detail: `Index i; cache ${layers} layers.` });

  function measured() {
    const state = { layers: 0, reads: 0 };
    const gate = { open: Promise.resolve() };
    const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies Logger;
    // The collection reads the cache too: its row sits between the sandbox's and the service's rows.
    const collect = vi.fn(async () => ({ ...report(true, true, 100), checks: [{ id: 'runtime', label: 'Container runtime', status: 'ok' as const, detail: 'podman' }, packages(state.layers), { id: 'logs', label: 'Log file', status: 'ok' as const, detail: 'x' }], probedAt: 100 }));
    const onChange = vi.fn<(r: HealthReport) => void>();
    const monitor = new HealthMonitor({
      collect,
      measured: async () => {
        state.reads++;
        const layers = state.layers;
        await gate.open;
        return [packages(layers)];
      },
      quickState: async () => ({ runtime: true, image: true }),
      onChange,
      log,
      now: () => 2000,
    });
    return { monitor, collect, onChange, state, gate };
  }

  it('reads the row again when told, replaces the collected one in its place and pushes it, with no probe', async () => {
    const { monitor, collect, onChange, state } = measured();
    await monitor.probe();
    state.layers = 1;
    await monitor.remeasure();
    expect(collect).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledTimes(2);
    const pushed = onChange.mock.calls[1]![0];
    expect(pushed.checks.map((c) => c.id)).toEqual(['runtime', 'packages', 'logs']);
    expect(pushed.checks[1]!.detail).toBe('Index i; cache 1 layers.');
    expect(pushed.probedAt).toBe(100);
    expect(monitor.latest!.checks[1]!.detail).toBe('Index i; cache 1 layers.');
    // Nothing changed since: no new report.
    await monitor.remeasure();
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it('one read at a time: requests during a read make one more read, which sees the latest state', async () => {
    const { monitor, onChange, state, gate } = measured();
    await monitor.probe();
    let open!: () => void;
    gate.open = new Promise((resolve) => (open = resolve));
    state.layers = 1;
    const first = monitor.remeasure();
    state.layers = 2;
    void monitor.remeasure();
    void monitor.remeasure();
    expect(state.reads).toBe(1);
    gate.open = Promise.resolve();
    open();
    await first;
    await vi.waitFor(() => expect(state.reads).toBe(2));
    await vi.waitFor(() => expect(onChange.mock.calls.at(-1)![0].checks[1]!.detail).toBe('Index i; cache 2 layers.'));
  });

  it('a new probe\'s own reading of the cache wins over an older measured one', async () => {
    const { monitor, state } = measured();
    await monitor.probe();
    state.layers = 1;
    await monitor.remeasure();
    state.layers = 3;
    const again = await monitor.probe();
    expect(again.checks.find((c) => c.id === 'packages')!.detail).toBe('Index i; cache 3 layers.');
  });

  it('a failed read is logged and leaves the last row', async () => {
    const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies Logger;
    const monitor = new HealthMonitor({
      collect: async () => ({ ...report(true, true), checks: [packages(0)] }),
      measured: async () => {
        throw new Error('the package cache: EACCES');
      },
      quickState: async () => ({ runtime: true, image: true }),
      onChange: () => {},
      log,
    });
    await monitor.probe();
    await monitor.remeasure();
    expect(log.warn).toHaveBeenCalledWith('health: could not read the package cache: EACCES');
    expect(monitor.latest!.checks[0]!.detail).toBe('Index i; cache 0 layers.');
  });
});
