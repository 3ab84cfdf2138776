// The warm pool against a fake backend: a batch beyond the pool waits for containers starting a bounded
// number at a time (no cold starts of its own), the pool then keeps the batch's peak ready, a quiet
// window shrinks it back, a spec change is reported as a refill until the pool is full again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContainerSpec } from '../../../electron/sandbox/backend.js';
import type { SandboxContainer } from '../../../electron/sandbox/run/sandbox-container.js';
import { WarmPool } from '../../../electron/sandbox/warm-pool.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';

const SPEC: ContainerSpec = { image: 'localhost/x:1', limits: DEFAULT_LIMITS };
const GiB = 1024 ** 3;

function fakeBackend() {
  const boots: { resolve: () => void; reject: (e: Error) => void; warm: boolean }[] = [];
  const exits = new Map<SandboxContainer, () => void>();
  const backend = {
    create: vi.fn((_spec: ContainerSpec, options?: { warm?: boolean }) => {
      let exit!: () => void;
      const exited = new Promise<void>((r) => (exit = r));
      const container = { isAlive: true, exited, name: `c${backend.create.mock.calls.length}`, whenPreloaded: (f: () => void) => f(), letGo: vi.fn(() => exit()) } as unknown as SandboxContainer;
      exits.set(container, exit);
      return new Promise<SandboxContainer>((resolve, reject) => boots.push({ resolve: () => resolve(container), reject, warm: options?.warm === true }));
    }),
  };
  const settle = () => new Promise((r) => setImmediate(r));
  const bootAll = async () => {
    while (boots.length > 0) {
      for (const b of boots.splice(0)) b.resolve();
      await settle();
    }
  };
  return { backend, boots, bootAll, exits, settle };
}

let pool: WarmPool | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await pool?.dispose();
});

describe('WarmPool', () => {
  it('serves a batch beyond the pool from bounded starts, grows to its peak, and shrinks back when quiet', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { backend, boots, bootAll, exits, settle } = fakeBackend();
    const kill = vi.fn(async () => {});
    pool = new WarmPool(backend, kill, { size: 2, max: 8, maxIdleMs: 600_000, maxRunSec: 60, refillParallel: 2, peakWindowMs: 10_000, hostMemoryBytes: 64 * GiB });
    pool.configure(SPEC);
    await bootAll();
    expect(pool.snapshot()).toMatchObject({ size: 2, ready: 2, starting: 0, min: 2, max: 8, waiting: 0 });

    const got = Array.from({ length: 8 }, (_, i) => pool!.acquire(`run-${i}`));
    await settle();
    // Two took the ready ones; six wait, and only two starts run at once.
    expect(pool.snapshot()).toMatchObject({ waiting: 6, starting: 2 });
    await bootAll();
    const handed = await Promise.all(got);
    expect(handed.every((h) => h.warm)).toBe(true);
    expect(new Set(handed.map((h) => h.container.name)).size).toBe(8);
    // No cold start: every container the backend made was a pooled one.
    expect(backend.create.mock.calls.every(([, o]) => (o as { warm?: boolean } | undefined)?.warm === true)).toBe(true);
    // While the runs are in flight and some containers are ready, the refill waits (it would take their CPU).
    const startsBefore = backend.create.mock.calls.length;
    await vi.advanceTimersByTimeAsync(500);
    expect(backend.create.mock.calls.length).toBe(startsBefore);
    // The batch's runs end: the pool refills to the batch's peak, ready for the next one.
    for (const h of handed) exits.get(h.container)!();
    await settle();
    await bootAll();
    expect(pool.snapshot()).toMatchObject({ size: 8, ready: 8, waiting: 0 });
    expect(pool.snapshot().refillsPerMin).toBeGreaterThanOrEqual(14);

    // No call comes for a whole window.
    await vi.advanceTimersByTimeAsync(10_100);
    expect(pool.snapshot()).toMatchObject({ size: 2, ready: 2 });
    expect(boots).toHaveLength(0);
    // The six it no longer needs were let go (they end by themselves), not killed by a runtime command.
    expect(kill).not.toHaveBeenCalled();
  });

  it('defers a refill while runs are in flight for at most a second', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { backend, bootAll } = fakeBackend();
    pool = new WarmPool(backend, async () => {}, { size: 2, maxIdleMs: 600_000, maxRunSec: 60, hostMemoryBytes: 64 * GiB });
    pool.configure(SPEC);
    await bootAll();
    await pool.acquire('long-run');
    await vi.advanceTimersByTimeAsync(500);
    expect(backend.create).toHaveBeenCalledTimes(2);
    // Due 150 ms after the take, deferred at most 1 s from then.
    await vi.advanceTimersByTimeAsync(700);
    expect(backend.create).toHaveBeenCalledTimes(3);
    await bootAll();
  });

  it('never grows past max, and a fixed pool (no max) stays at its size', async () => {
    const { backend, bootAll, settle } = fakeBackend();
    pool = new WarmPool(backend, async () => {}, { size: 1, max: 3, maxIdleMs: 600_000, maxRunSec: 60, refillParallel: 16, hostMemoryBytes: 64 * GiB });
    pool.configure(SPEC);
    await bootAll();
    const got = Array.from({ length: 6 }, (_, i) => pool!.acquire(`run-${i}`));
    await settle();
    await bootAll();
    await Promise.all(got);
    expect(pool.snapshot()).toMatchObject({ size: 3, ready: 3 });
    await pool.dispose();

    const fixed = fakeBackend();
    pool = new WarmPool(fixed.backend, async () => {}, { size: 1, maxIdleMs: 600_000, maxRunSec: 60 });
    pool.configure(SPEC);
    await fixed.bootAll();
    const more = Array.from({ length: 4 }, (_, i) => pool!.acquire(`run-${i}`));
    await settle();
    await fixed.bootAll();
    await Promise.all(more);
    expect(pool.snapshot()).toMatchObject({ size: 1, ready: 1 });
    expect(pool.snapshot().max).toBeUndefined();
  });

  it('bounds growth by memory', async () => {
    const { backend, bootAll, settle } = fakeBackend();
    // 4 GiB host, half for the pool, 512m per container: 4 at most.
    pool = new WarmPool(backend, async () => {}, { size: 1, max: 16, maxIdleMs: 600_000, maxRunSec: 60, refillParallel: 16, hostMemoryBytes: 4 * GiB });
    pool.configure(SPEC);
    await bootAll();
    const got = Array.from({ length: 10 }, (_, i) => pool!.acquire(`run-${i}`));
    await settle();
    await bootAll();
    await Promise.all(got);
    expect(pool.snapshot()).toMatchObject({ size: 4, ready: 4 });
  });

  it('a failed start sends every waiting call to a cold start of its own (which reports the error)', async () => {
    const { backend, boots, settle } = fakeBackend();
    pool = new WarmPool(backend, async () => {}, { size: 0, max: 2, maxIdleMs: 600_000, maxRunSec: 60, refillParallel: 1, hostMemoryBytes: 64 * GiB });
    pool.configure(SPEC);
    const a = pool.acquire('a');
    const b = pool.acquire('b');
    await settle();
    expect(boots).toHaveLength(1);
    boots.shift()!.reject(new Error('image missing'));
    await settle();
    // Both fell back to cold starts.
    expect(backend.create.mock.calls.filter(([, o]) => !(o as { warm?: boolean } | undefined)?.warm)).toHaveLength(2);
    for (const boot of boots.splice(0)) boot.reject(new Error('image missing'));
    await expect(a).rejects.toThrow('image missing');
    await expect(b).rejects.toThrow('image missing');
    expect(pool.snapshot().lastError).toBe('image missing');
  });

  it('reports a refill after a spec change until the pool is full again, and none for an unchanged spec', async () => {
    const { backend, bootAll } = fakeBackend();
    pool = new WarmPool(backend, async () => {}, { size: 1, maxIdleMs: 600_000, maxRunSec: 60 });
    pool.configure(SPEC);
    await bootAll();
    expect(pool.snapshot().refilling).toBe(false);
    pool.configure({ ...SPEC });
    expect(pool.snapshot().refilling).toBe(false);
    pool.configure({ ...SPEC, limits: { ...DEFAULT_LIMITS, memory: '256m' } });
    expect(pool.snapshot()).toMatchObject({ refilling: true, ready: 0, starting: 1 });
    await bootAll();
    expect(pool.snapshot()).toMatchObject({ refilling: false, ready: 1 });
  });
});
