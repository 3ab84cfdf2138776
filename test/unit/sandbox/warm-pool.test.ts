// The warm pool against a fake backend: runs that find no ready container grow the pool (up to a cap),
// a quiet spell shrinks it back, a spec change is reported as a refill until the pool is full again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContainerSpec } from '../../../electron/sandbox/backend.js';
import type { SandboxContainer } from '../../../electron/sandbox/run/sandbox-container.js';
import { BURST_DECAY_MS, BURST_EXTRA_MAX, WarmPool } from '../../../electron/sandbox/warm-pool.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';

const SPEC: ContainerSpec = { image: 'localhost/x:1', limits: DEFAULT_LIMITS };

function fakeBackend() {
  const boots: { resolve: () => void; warm: boolean }[] = [];
  const backend = {
    create: vi.fn((_spec: ContainerSpec, options?: { warm?: boolean }) => {
      const container = { isAlive: true, exited: new Promise(() => {}), name: `c${boots.length}`, whenPreloaded: (f: () => void) => f() } as unknown as SandboxContainer;
      return new Promise<SandboxContainer>((resolve) => boots.push({ resolve: () => resolve(container), warm: options?.warm === true }));
    }),
  };
  const bootAll = async () => {
    for (const b of boots.splice(0)) b.resolve();
    await new Promise((r) => setImmediate(r));
  };
  return { backend, boots, bootAll };
}

let pool: WarmPool | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await pool?.dispose();
});

describe('WarmPool', () => {
  it('grows by one for each run that found nothing ready, up to the cap, and shrinks back after a quiet spell', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { backend, bootAll } = fakeBackend();
    pool = new WarmPool(backend, async () => {}, { size: 2, maxIdleMs: 600_000, maxRunSec: 60 });
    pool.configure(SPEC);
    expect(backend.create).toHaveBeenCalledTimes(2);
    await bootAll();
    expect(pool.snapshot()).toMatchObject({ size: 2, ready: 2, starting: 0 });

    // Two runs take the ready ones; the next ones arrive before any refill: each is a miss.
    for (let i = 0; i < 2 + BURST_EXTRA_MAX + 2; i++) void pool.acquire(`run-${i}`);
    await vi.advanceTimersByTimeAsync(200);
    const warmBoots = backend.create.mock.calls.filter(([, o]) => o?.warm === true).length;
    // 2 at start, then the pool refills to its size plus the burst allowance, never more.
    expect(warmBoots - 2).toBe(2 + BURST_EXTRA_MAX);
    await bootAll();
    expect(pool.snapshot().ready).toBe(2 + BURST_EXTRA_MAX);

    // Quiet: after the decay, the next refill keeps only the configured size.
    await vi.advanceTimersByTimeAsync(BURST_DECAY_MS + 1000);
    pool.configure(SPEC);
    expect(pool.snapshot().ready).toBe(2);
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
