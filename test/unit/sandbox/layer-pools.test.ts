// Ready sandboxes for recent package layers, against a fake backend: each made sandbox mounts exactly the
// layer its run asked for, a second run with the same layer finds one ready, only the last two layers keep
// one, and a pool size of 0 (one-shot commands) keeps none. Dropped sandboxes are let go (or killed).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContainerSpec } from '../../../electron/sandbox/backend.js';
import { LayerPools, MAX_LAYER_POOLS } from '../../../electron/sandbox/layer-pools.js';
import type { SandboxContainer } from '../../../electron/sandbox/run/sandbox-container.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';

const specFor = (c: string): ContainerSpec => ({ image: 'localhost/x:1', limits: DEFAULT_LIMITS, packageLayer: { source: `/layers/${c.repeat(32)}`, key: c.repeat(32) } });

function fakeBackend() {
  const made: { name: string; layer: string | undefined; warm: boolean }[] = [];
  const killed: string[] = [];
  const backend = {
    create: vi.fn(async (spec: ContainerSpec, options?: { warm?: boolean }) => {
      const name = `c${made.length}`;
      made.push({ name, layer: spec.packageLayer?.key, warm: options?.warm === true });
      let exit!: () => void;
      const exited = new Promise<void>((r) => (exit = r));
      // Let go, an idle sandbox ends by itself (the runtime removes it): the pool counts that as gone.
      return { isAlive: true, exited, name, whenPreloaded: (f: () => void) => f(), letGo: () => (killed.push(name), exit()) } as unknown as SandboxContainer;
    }),
  };
  const kill = async (cs: SandboxContainer[]) => void killed.push(...cs.map((c) => c.name));
  return { backend, made, killed, kill };
}

const settle = () => new Promise((r) => setTimeout(r, 250));

let pools: LayerPools | undefined;
afterEach(async () => {
  await pools?.dispose();
});

describe('LayerPools', () => {
  it('gives each run a sandbox mounting its own layer, ready the second time, for the last two layers only', async () => {
    const { backend, made, killed, kill } = fakeBackend();
    pools = new LayerPools(backend, kill, { size: () => 1, maxRunSec: () => 60 });
    const first = await pools.acquire('run-1', specFor('a'));
    expect(pools.layerOf(first.container)).toBe('a'.repeat(32));
    await settle();
    // The run took the first sandbox; a second one with the same layer waits for the next run.
    expect(made.map((m) => m.layer)).toEqual(['a'.repeat(32), 'a'.repeat(32)]);
    const second = await pools.acquire('run-2', specFor('a'));
    expect(second.container.name).toBe('c1');
    await settle();
    await pools.acquire('run-3', specFor('b'));
    await pools.acquire('run-4', specFor('c'));
    await settle();
    expect(MAX_LAYER_POOLS).toBe(2);
    expect(pools.size).toBe(2);
    // Layer a's ready sandbox went when the third layer came; no sandbox ever mounted more than one layer.
    const readyForA = made.filter((m) => m.layer === 'a'.repeat(32)).at(-1)!.name;
    expect(killed).toContain(readyForA);
    expect(made.every((m) => /^[abc]{32}$/.test(m.layer ?? ''))).toBe(true);
    await expect(pools.acquire('run-5', { image: 'localhost/x:1', limits: DEFAULT_LIMITS })).rejects.toThrow(/needs a spec with a package layer/);
  });

  it('keeps no ready sandbox where the shared pool keeps none', async () => {
    const { backend, made, kill } = fakeBackend();
    pools = new LayerPools(backend, kill, { size: () => 0, maxRunSec: () => 60 });
    await pools.acquire('run-1', specFor('a'));
    await settle();
    expect(made).toHaveLength(1);
    expect(made[0]!.warm).toBe(false);
  });
});
