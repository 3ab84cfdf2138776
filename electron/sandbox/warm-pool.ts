// Containers started ahead of need, each with the agent booted and waiting. A pooled container serves
// exactly one execution and is then destroyed; it never carries anything from one run to the next.
// How many are kept follows the load (pool-policy.ts): at least `size`, up to the recent peak of
// concurrent calls within `max` and memory, and back to `size` after a quiet window. A call that finds
// none ready waits for the next one to come ready (starts are bounded, see startsNeeded) instead of
// starting a cold one of its own that would compete with them for the CPU.
import { availableParallelism, totalmem } from 'node:os';
import { errorMessage } from '../../shared/errors.js';
import type { PoolState } from '../../shared/execution.js';
import { type SandboxBackend, specKey, type ContainerSpec } from './backend.js';
import { DemandWindow, memoryCap, PEAK_WINDOW_MS, poolTarget, RateWindow, startsNeeded } from './pool-policy.js';
import type { SandboxContainer } from './run/sandbox-container.js';
import { preloadProblem } from './warm-imports.js';

interface Slot {
  key: string;
  booting: Promise<SandboxContainer>;
  container?: SandboxContainer;
  idleTimer?: NodeJS.Timeout;
}

interface Waiter {
  resolve: (container: SandboxContainer) => void;
  reject: (err: unknown) => void;
}

export interface PoolOptions {
  /** Always kept ready (setting poolSize). */
  size: number;
  /** The most it grows to under load (setting poolMax); absent: a fixed pool of `size`. */
  max?: number;
  /** A container idle this long is replaced, well before the runtime-side lifetime cap kills it. */
  maxIdleMs: number;
  /** The longest a run may last; pooled containers must outlive idle time plus one run. */
  maxRunSec: number;
  /** Container starts at once (default: the CPU count, at least 2). */
  refillParallel?: number;
  /** How long a peak of demand keeps the pool grown (default PEAK_WINDOW_MS). */
  peakWindowMs?: number;
  /** Host memory the memory bound is taken from (default: this machine's). */
  hostMemoryBytes?: number;
  /** Told whenever the snapshot may have changed (the panel shows refills as they happen). */
  onChange?: () => void;
}

export type PoolSnapshot = PoolState;

const MAX_BACKOFF_MS = 30_000;
const REFILL_DELAY_MS = 150;
/**
 * A refill waits while runs are in flight and containers are still ready (a start takes CPU from the runs),
 * at most this long: it starts as the last run ends, or at once when a call has to wait for one.
 */
const MAX_REFILL_DEFER_MS = 1000;
/** How long an idle container let go may take to remove itself before it is killed. */
const LET_GO_GRACE_MS = 5000;

export class WarmPool {
  private slots: Slot[] = [];
  private readonly waiters: Waiter[] = [];
  /** Handed out and not yet exited: with the waiters, the calls in flight. */
  private readonly outstanding = new Set<SandboxContainer>();
  private demand: DemandWindow;
  private readonly refills = new RateWindow();
  private spec: ContainerSpec | undefined;
  private backoffMs = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private refillTimer: NodeJS.Timeout | undefined;
  private shrinkTimer: NodeJS.Timeout | undefined;
  private lastError: string | null = null;
  private disposed = false;
  /** Set when a spec change drains the pool, cleared when it is full again: the panel shows it as is. */
  private refilling = false;
  /** Since when a refill has waited for the runs in flight (see MAX_REFILL_DEFER_MS). */
  private deferredSince: number | null = null;

  constructor(
    private backend: Pick<SandboxBackend, 'create'>,
    private readonly kill: (containers: SandboxContainer[]) => Promise<void>,
    private options: PoolOptions,
  ) {
    this.demand = new DemandWindow(options.peakWindowMs ?? PEAK_WINDOW_MS);
  }

  /** Sets what containers look like and how many to keep. A different spec drains the pool first. */
  configure(spec: ContainerSpec, options: Partial<PoolOptions> = {}): void {
    const window = this.options.peakWindowMs;
    this.options = { ...this.options, ...options };
    if (this.options.peakWindowMs !== window) this.demand = new DemandWindow(this.options.peakWindowMs ?? PEAK_WINDOW_MS);
    const changed = !this.spec || specKey(this.spec) !== specKey(spec);
    const replacing = changed && this.spec !== undefined;
    this.spec = spec;
    if (changed) this.drainIdle();
    if (replacing && this.options.size > 0) this.refilling = true;
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
    const max = this.max();
    return {
      size: this.target(),
      ready,
      starting: this.slots.length - ready,
      lastError: this.lastError,
      refilling: this.refilling,
      ...(preloading > 0 ? { preloading } : {}),
      ...(max !== this.options.size ? { min: this.options.size, max } : {}),
      waiting: this.waiters.length,
      refillsPerMin: this.refills.count(Date.now()),
    };
  }

  /**
   * A container for one execution: a ready pooled one, else the next to come ready, else (pool off or
   * its start failed) a cold start. `warm` says whether it came from the pool.
   */
  async acquire(executionId: string): Promise<{ container: SandboxContainer; warm: boolean }> {
    const spec = this.requireSpec();
    if (this.max() === 0) return { container: await this.backend.create(spec, { executionId }), warm: false };
    this.demand.record(Date.now(), this.outstanding.size + this.waiters.length + 1);
    this.scheduleShrink();
    const key = specKey(spec);
    const index = this.slots.findIndex((s) => s.key === key && s.container?.isAlive);
    let container: SandboxContainer | undefined;
    if (index !== -1) {
      const [slot] = this.slots.splice(index, 1);
      clearTimeout(slot!.idleTimer);
      container = slot!.container;
      this.refillSoon();
    } else {
      const next = new Promise<SandboxContainer>((resolve, reject) => this.waiters.push({ resolve, reject }));
      this.refill();
      container = await next.catch(() => undefined); // a failed pooled start: the cold start below says why
    }
    this.changed();
    if (container?.isAlive) return { container: this.handOut(container), warm: true };
    return { container: this.handOut(await this.backend.create(spec, { executionId })), warm: false };
  }

  /** Kill every idle container (limits or image changed, or shutting down). Waiting calls wait for new ones. */
  drainIdle(): void {
    const old = this.slots;
    this.slots = [];
    for (const slot of old) this.discard(slot);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.refillTimer);
    clearTimeout(this.shrinkTimer);
    for (const w of this.waiters.splice(0)) w.reject(new Error('the pool was closed'));
    const old = this.slots;
    this.slots = [];
    const started = await Promise.allSettled(old.map((s) => { clearTimeout(s.idleTimer); return s.booting; }));
    const alive = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    await this.letGo(alive, 2000);
  }

  private handOut(container: SandboxContainer): SandboxContainer {
    this.outstanding.add(container);
    void container.exited.finally(() => {
      this.outstanding.delete(container);
      if (this.outstanding.size === 0) this.refill();
    });
    return container;
  }

  private requireSpec(): ContainerSpec {
    if (!this.spec) throw new Error('the pool has not been configured');
    return this.spec;
  }

  private max(): number {
    return Math.max(this.options.size, this.options.max ?? this.options.size);
  }

  /** How many containers to keep ready now (see pool-policy.ts). */
  private target(): number {
    const memCap = memoryCap(this.options.hostMemoryBytes ?? totalmem(), this.spec?.limits.memory ?? '0');
    return poolTarget({ min: this.options.size, max: this.max() }, this.demand.peak(Date.now()), memCap);
  }

  private trim(): void {
    const keep = this.target() + this.waiters.length;
    // Ready ones go last-in first; a container still starting is left to finish (it may serve a waiter).
    for (let i = this.slots.length - 1; i >= 0 && this.slots.length > keep; i--) {
      const slot = this.slots[i]!;
      if (!slot.container) continue;
      this.slots.splice(i, 1);
      this.discard(slot);
    }
  }

  /** An idle container is let go (it removes itself, no kill command spent); one that lingers is killed. */
  private discard(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    void slot.booting.then((c) => this.letGo([c])).catch(() => {});
  }

  private async letGo(containers: SandboxContainer[], graceMs = LET_GO_GRACE_MS): Promise<void> {
    for (const c of containers) c.letGo();
    const exited = await Promise.all(containers.map((c) => Promise.race([c.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), graceMs).unref())])));
    const lingering = containers.filter((_, i) => !exited[i]);
    if (lingering.length > 0) await this.kill(lingering);
  }

  /** When the peak leaves its window, the pool shrinks (checked then, not polled). */
  private scheduleShrink(): void {
    clearTimeout(this.shrinkTimer);
    const at = this.demand.nextChangeAt(Date.now());
    if (at === null || this.disposed) return;
    this.shrinkTimer = setTimeout(() => {
      this.refill();
      this.changed();
      this.scheduleShrink();
    }, Math.max(0, at - Date.now()) + 10);
    this.shrinkTimer.unref();
  }

  /**
   * Starting a container blocks the event loop for ~10 ms (fork of the runtime client), so a refill after
   * a ready container was taken waits a moment: the short run's result is delivered first.
   */
  private refillSoon(delayMs = REFILL_DELAY_MS): void {
    if (this.refillTimer) return;
    this.refillTimer = setTimeout(() => {
      this.refillTimer = undefined;
      this.refill();
    }, delayMs);
    this.refillTimer.unref();
  }

  private refill(): void {
    if (this.disposed || !this.spec) return;
    this.trim();
    if (this.retryTimer) return;
    const booting = this.slots.filter((s) => !s.container).length;
    const parallel = this.options.refillParallel ?? Math.max(2, availableParallelism());
    const n = startsNeeded({ target: this.target(), slots: this.slots.length, waiting: this.waiters.length, booting, parallel });
    if (n > 0 && this.waiters.length === 0 && this.outstanding.size > 0 && this.slots.some((s) => s.container)) {
      const now = Date.now();
      this.deferredSince ??= now;
      const left = MAX_REFILL_DEFER_MS - (now - this.deferredSince);
      if (left > 0) return this.refillSoon(left);
    }
    this.deferredSince = null;
    for (let i = 0; i < n; i++) this.startSlot(this.spec);
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
      (container) => this.booted(slot, container),
      (err: unknown) => {
        this.lastError = errorMessage(err);
        if (!this.remove(slot)) return;
        // Waiting calls learn of it by starting their own container (which reports the real error): while
        // the pool backs off, none would come ready for them.
        for (const w of this.waiters.splice(0)) w.reject(err);
        this.scheduleRetry();
      },
    );
  }

  private booted(slot: Slot, container: SandboxContainer): void {
    this.backoffMs = 0;
    this.lastError = null;
    this.refills.add(Date.now());
    // A preload the user named that does not import is said here (the container still serves runs).
    container.whenPreloaded(() => {
      this.lastError = preloadProblem(container) ?? this.lastError;
      this.changed();
    });
    if (!this.slots.includes(slot)) return;
    const waiter = this.waiters.shift();
    if (waiter) {
      // Straight to the call that waited longest; the next start begins as this one ends.
      this.slots.splice(this.slots.indexOf(slot), 1);
      waiter.resolve(container);
      this.refill();
      this.changed();
      return;
    }
    slot.container = container;
    this.changed();
    slot.idleTimer = setTimeout(() => this.replace(slot), this.options.maxIdleMs);
    slot.idleTimer.unref();
    // A pooled container that dies while idle (killed from outside, agent backstop) is replaced.
    void container.exited.then(() => this.replace(slot));
    this.refill();
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
