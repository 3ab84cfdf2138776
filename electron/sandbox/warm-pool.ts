// Containers started ahead of need, each with the agent booted and waiting. A pooled container serves
// exactly one execution and is then destroyed; it never carries anything from one run to the next.
import { errorMessage } from '../../shared/errors.js';
import type { PoolState } from '../../shared/execution.js';
import { type SandboxBackend, specKey, type ContainerSpec } from './backend.js';
import type { SandboxContainer } from './run/sandbox-container.js';
import { preloadProblem } from './warm-imports.js';

interface Slot {
  key: string;
  booting: Promise<SandboxContainer>;
  container?: SandboxContainer;
  idleTimer?: NodeJS.Timeout;
}

export interface PoolOptions {
  size: number;
  /** A container idle this long is replaced, well before the runtime-side lifetime cap kills it. */
  maxIdleMs: number;
  /** The longest a run may last; pooled containers must outlive idle time plus one run. */
  maxRunSec: number;
  /** Extra containers kept while demand outruns the pool (default BURST_EXTRA_MAX; 0 turns growth off). */
  burstMax?: number;
  /** Told whenever the snapshot may have changed (the panel shows refills as they happen). */
  onChange?: () => void;
}

export type PoolSnapshot = PoolState;

const MAX_BACKOFF_MS = 30_000;
const REFILL_DELAY_MS = 150;
/**
 * Demand that outruns the pool (a run finds no ready container) grows it by one, up to this many extra
 * containers; a quiet spell of BURST_DECAY_MS lets it shrink back to the configured size.
 */
export const BURST_EXTRA_MAX = 4;
export const BURST_DECAY_MS = 30_000;

export class WarmPool {
  private slots: Slot[] = [];
  private spec: ContainerSpec | undefined;
  private backoffMs = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private refillTimer: NodeJS.Timeout | undefined;
  private lastError: string | null = null;
  private disposed = false;
  /** Set when a spec change drains the pool, cleared when it is full again: the panel shows it as is. */
  private refilling = false;
  /** Extra containers kept while runs arrive faster than the configured pool refills. */
  private burst = 0;
  private lastMissAt = 0;

  constructor(
    private backend: Pick<SandboxBackend, 'create'>,
    private readonly kill: (containers: SandboxContainer[]) => Promise<void>,
    private options: PoolOptions,
  ) {}

  /** Sets what containers look like and how many to keep. A different spec drains the pool first. */
  configure(spec: ContainerSpec, options: Partial<PoolOptions> = {}): void {
    this.options = { ...this.options, ...options };
    const changed = !this.spec || specKey(this.spec) !== specKey(spec);
    const replacing = changed && this.spec !== undefined;
    this.spec = spec;
    if (changed) this.drainIdle();
    if (replacing && this.options.size > 0) this.refilling = true;
    this.trim();
    this.refill();
    this.changed();
  }

  /** Another backend (the user switched runtime): idle containers go, new ones come from it. */
  setBackend(backend: Pick<SandboxBackend, 'create'>): void {
    this.backend = backend;
    this.drainIdle();
    this.refill();
    this.changed();
  }

  snapshot(): PoolSnapshot {
    const ready = this.slots.filter((s) => s.container).length;
    const preloading = this.slots.filter((s) => s.container?.preloading).length;
    return {
      size: this.options.size,
      ready,
      starting: this.slots.length - ready,
      lastError: this.lastError,
      refilling: this.refilling,
      ...(preloading > 0 ? { preloading } : {}),
    };
  }

  /**
   * A container for one execution: a ready pooled one, else the oldest still booting, else a cold start.
   * `warm` says whether it came from the pool.
   */
  async acquire(executionId: string): Promise<{ container: SandboxContainer; warm: boolean }> {
    const spec = this.requireSpec();
    const key = specKey(spec);
    const index = this.pickSlot(key);
    // No container was ready for this run: demand outruns the pool, so keep one more ready for the next.
    if (this.options.size > 0 && (index === -1 || !this.slots[index]!.container)) this.missed();
    if (index !== -1) {
      const [slot] = this.slots.splice(index, 1);
      clearTimeout(slot!.idleTimer);
      this.changed();
      this.refillSoon();
      try {
        const container = await slot!.booting;
        if (container.isAlive) return { container, warm: true };
      } catch {
        // The pooled start failed; a cold start below reports the real reason to this run.
      }
    }
    this.refillSoon();
    const container = await this.backend.create(spec, { executionId });
    return { container, warm: false };
  }

  /** Kill every idle container (limits or image changed, or shutting down). */
  drainIdle(): void {
    const old = this.slots;
    this.slots = [];
    for (const slot of old) this.discard(slot);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.refillTimer);
    const old = this.slots;
    this.slots = [];
    const started = await Promise.allSettled(old.map((s) => { clearTimeout(s.idleTimer); return s.booting; }));
    const alive = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    await this.kill(alive);
  }

  private requireSpec(): ContainerSpec {
    if (!this.spec) throw new Error('the pool has not been configured');
    return this.spec;
  }

  private pickSlot(key: string): number {
    const ready = this.slots.findIndex((s) => s.key === key && s.container?.isAlive);
    if (ready !== -1) return ready;
    return this.slots.findIndex((s) => s.key === key && !s.container);
  }

  private missed(): void {
    this.burst = Math.min(this.burst + 1, this.options.burstMax ?? BURST_EXTRA_MAX);
    this.lastMissAt = Date.now();
  }

  /** How many containers to keep: the configured size, plus the burst allowance while demand lasts. */
  private target(): number {
    if (this.options.size === 0) return 0;
    if (this.burst > 0 && Date.now() - this.lastMissAt > BURST_DECAY_MS) this.burst = 0;
    return this.options.size + this.burst;
  }

  private trim(): void {
    while (this.slots.length > this.target()) this.discard(this.slots.pop()!);
  }

  private discard(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    void slot.booting.then((c) => this.kill([c])).catch(() => {});
  }

  /**
   * Starting a container blocks the event loop for ~10 ms (fork of the runtime client), so the refill
   * waits a moment: a short run's result is delivered first instead of queueing behind the fork.
   */
  private refillSoon(): void {
    if (this.refillTimer) return;
    this.refillTimer = setTimeout(() => {
      this.refillTimer = undefined;
      this.refill();
    }, REFILL_DELAY_MS);
    this.refillTimer.unref();
  }

  private refill(): void {
    if (this.disposed || !this.spec || this.retryTimer) return;
    this.trim();
    while (this.slots.length < this.target()) this.startSlot(this.spec);
  }

  private startSlot(spec: ContainerSpec): void {
    const idleSec = Math.ceil(this.options.maxIdleMs / 1000);
    const slot: Slot = {
      key: specKey(spec),
      booting: this.backend.create(spec, {
        warm: true,
        idleTimeoutSec: idleSec + 30,
        maxLifetimeSec: idleSec + this.options.maxRunSec + 60,
      }),
    };
    this.slots.push(slot);
    this.changed();
    slot.booting.then(
      (container) => {
        this.backoffMs = 0;
        this.lastError = null;
        // A preload the user named that does not import is said here (the container still serves runs).
        container.whenPreloaded(() => {
          this.lastError = preloadProblem(container) ?? this.lastError;
          this.changed();
        });
        if (!this.slots.includes(slot)) return;
        slot.container = container;
        this.changed();
        slot.idleTimer = setTimeout(() => this.replace(slot), this.options.maxIdleMs);
        slot.idleTimer.unref();
        // A pooled container that dies while idle (killed from outside, agent backstop) is replaced.
        void container.exited.then(() => this.replace(slot));
      },
      (err: unknown) => {
        this.lastError = errorMessage(err);
        this.remove(slot);
        this.scheduleRetry();
      },
    );
  }

  private replace(slot: Slot): void {
    if (!this.remove(slot)) return;
    this.discard(slot);
    this.refill();
  }

  private remove(slot: Slot): boolean {
    const i = this.slots.indexOf(slot);
    if (i === -1) return false;
    this.slots.splice(i, 1);
    this.changed();
    return true;
  }

  private changed(): void {
    if (this.slots.filter((s) => s.container).length >= this.options.size) this.refilling = false;
    if (!this.disposed) this.options.onChange?.();
  }

  /** Failed boots back off (1 s doubling to 30 s) instead of spinning on a broken runtime. */
  private scheduleRetry(): void {
    if (this.disposed || this.retryTimer) return;
    this.backoffMs = Math.min(this.backoffMs ? this.backoffMs * 2 : 1000, MAX_BACKOFF_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.refill();
    }, this.backoffMs);
    this.retryTimer.unref();
  }
}
