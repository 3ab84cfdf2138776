// Warm sandboxes for the package layers used lately. A run with packages mounts its own layer and no
// other, so it cannot take a sandbox from the shared pool; instead each of the last MAX_LAYER_POOLS layers
// keeps sandboxes ready with that layer (and only it) mounted, so a run that reuses a layer starts warm.
// A pooled sandbox still serves exactly one run. A layer unused for LAYER_POOL_IDLE_MS loses its sandbox.
import type { ContainerSpec, SandboxBackend } from './backend.js';
import type { SandboxContainer } from './run/sandbox-container.js';
import { WarmPool } from './warm-pool.js';

/** Layers that keep ready sandboxes: each costs `size` idle containers while it is in use. */
export const MAX_LAYER_POOLS = 2;
export const LAYER_POOL_IDLE_MS = 5 * 60_000;

export interface LayerPoolOptions {
  /** Ready sandboxes per layer (the engine: the pool size, at most 2; 0 where the shared pool keeps none). */
  size: () => number;
  /** What a pooled sandbox must outlive besides its idle time (one run, held time included). */
  maxRunSec: () => number;
}

export class LayerPools {
  /** By layer key, least recently used first. */
  private readonly pools = new Map<string, { pool: WarmPool; idle: NodeJS.Timeout }>();
  /** The layer each sandbox handed out mounts (a session's later calls can use only that one). */
  private readonly mounted = new WeakMap<SandboxContainer, string>();

  constructor(
    private creator: Pick<SandboxBackend, 'create'>,
    private readonly kill: (containers: SandboxContainer[]) => Promise<void>,
    private readonly options: LayerPoolOptions,
  ) {}

  /** A sandbox mounting `spec.packageLayer`: the ready one for that layer if any, else a cold start. */
  async acquire(executionId: string, spec: ContainerSpec): Promise<{ container: SandboxContainer; warm: boolean }> {
    const key = spec.packageLayer?.key;
    if (!key) throw new Error('a layer pool needs a spec with a package layer');
    const held = this.pools.get(key);
    if (held) {
      clearTimeout(held.idle);
      this.pools.delete(key);
    }
    const pool = held?.pool ?? new WarmPool(this.creator, this.kill, { size: this.options.size(), maxIdleMs: LAYER_POOL_IDLE_MS, maxRunSec: this.options.maxRunSec() });
    const idle = setTimeout(() => this.drop(key), LAYER_POOL_IDLE_MS);
    idle.unref();
    this.pools.set(key, { pool, idle });
    // A spec that changed (limits, image, preloads) drains the old sandbox first, as the shared pool does.
    pool.configure(spec, { size: this.options.size(), maxRunSec: this.options.maxRunSec() });
    for (const old of [...this.pools.keys()].slice(0, Math.max(0, this.pools.size - MAX_LAYER_POOLS))) this.drop(old);
    const got = await pool.acquire(executionId);
    this.mounted.set(got.container, key);
    return got;
  }

  /** The package layer this sandbox mounts, if it came from here. */
  layerOf(container: SandboxContainer): string | undefined {
    return this.mounted.get(container);
  }

  /** Another backend: the ready sandboxes go; later runs start theirs there. */
  setBackend(creator: Pick<SandboxBackend, 'create'>): void {
    this.creator = creator;
    void this.dispose();
  }

  get size(): number {
    return this.pools.size;
  }

  async dispose(): Promise<void> {
    await Promise.allSettled([...this.pools.keys()].map((key) => this.drop(key)));
  }

  private drop(key: string): Promise<void> {
    const held = this.pools.get(key);
    if (!held) return Promise.resolve();
    clearTimeout(held.idle);
    this.pools.delete(key);
    return held.pool.dispose();
  }
}
