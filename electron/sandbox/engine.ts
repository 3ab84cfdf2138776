// The sandbox engine: a FIFO queue with a concurrency cap in front of the warm pool, and the one typed
// event stream that history, MCP progress and the panel all subscribe to.
import { randomUUID } from 'node:crypto';
import type { EngineEvent, ExecutionRequest, ExecutionResult } from '../../shared/execution.js';
import { AppError, errorMessage } from '../../shared/errors.js';
import type { Limits } from '../../shared/limits.js';
import type { SandboxBackend, ContainerSpec, Owner } from './backend.js';
import { runInContainer, type RunOutcome } from './run/execution.js';
import { notRunResult } from './run/exit-classifier.js';
import { reapOrphans } from './reaper.js';
import type { SandboxContainer } from './run/sandbox-container.js';
import { StartGate, type Refusal } from './start-gate.js';
import { WarmPool, type PoolSnapshot } from './warm-pool.js';
import { LayerPools } from './layer-pools.js';
import { DEFAULT_PRELOAD, PreloadUsage } from './warm-imports.js';
import { ImageAwareCreator } from './image-aware-creator.js';
import type { Job } from './engine-job.js';
import { admissionRefusal, busyMessage, enginePoolBounds, containerSpecOf, packageSpecOf, runEgressOf, sessionLayerRefusal, summaryOf, PAUSED_MESSAGE, type EngineConfig, type EngineOptions, type EngineSnapshot, type ExecutionHandle, type SessionBinding, type SubmitOptions } from './engine-config.js';

export { busyMessage, containerSpecOf, PAUSED_MESSAGE, type EngineConfig, type EngineOptions, type EngineSnapshot, type ExecutionHandle, type SessionBinding, type SubmitOptions };

export class Engine {
  readonly owner: Owner;
  private config: EngineConfig;
  /** Podman, Docker (through their CLI) or Kubernetes: the engine only sees the interface. */
  private backendInUse: SandboxBackend;
  private readonly pool: WarmPool;
  /** Ready sandboxes for the layers used lately (a run with packages mounts only its own). */
  private readonly layerPools: LayerPools;
  private readonly queue: Job[] = [];
  private readonly running = new Map<string, Job>();
  private readonly inUse = new Set<SandboxContainer>();
  private readonly cleanups = new Set<Promise<void>>();
  private readonly listeners = new Set<(event: EngineEvent) => void>();
  /** Which backend made each sandbox, so one made before a switch is still killed where it lives. */
  private readonly madeBy = new WeakMap<SandboxContainer, SandboxBackend>();
  private stopped = false;
  /** Requests that come before start() has finished wait there. */
  private readonly startGate = new StartGate();
  private pausedFlag = false;
  private readonly creator: ImageAwareCreator;
  private readonly preloadUsage = new PreloadUsage();

  constructor(
    backend: SandboxBackend,
    config: EngineConfig,
    private readonly options: EngineOptions = {},
  ) {
    this.config = config;
    // The backend labels what it makes with its owner; the reaper must spare exactly those.
    this.owner = backend.owner;
    this.creator = new ImageAwareCreator(options, (container, backend) => this.madeBy.set(container, backend));
    this.backendInUse = backend;
    this.pool = new WarmPool(this.creator.for(this.backendInUse), (containers) => this.destroy(containers), {
      ...this.poolBounds(),
      maxIdleMs: options.poolMaxIdleMs ?? 5 * 60_000,
      maxRunSec: this.maxRunSec(),
      ...(options.poolPeakWindowMs !== undefined ? { peakWindowMs: options.poolPeakWindowMs } : {}),
      onChange: () => this.emit({ type: 'poolChanged', pool: this.poolSnapshot() }),
    });
    // Ready sandboxes per recent layer, as many as the pool keeps up to two (none for a one-shot command).
    this.layerPools = new LayerPools(this.creator.for(this.backendInUse), (containers) => this.destroy(containers), {
      size: () => Math.min(2, this.config.poolSize),
      maxRunSec: () => this.maxRunSec(),
    });
  }

  /** Removes dead instances' containers, warms the pool, then admits the requests that came before. */
  async start(): Promise<void> {
    try {
      // No runtime yet is not fatal here: runs will say so, and health explains it.
      if (!this.options.oneShot) await reapOrphans(this.backend, this.owner).catch(() => {});
      this.configurePool();
    } finally {
      this.startGate.open();
    }
  }

  /** A backend with its own warm pool (Kubernetes: warm pods any instance may adopt) replaces the in-process one. */
  private configurePool(): void {
    const shared = this.backendInUse.sharedPool;
    const options = { size: this.config.poolSize, maxRunSec: this.maxRunSec() };
    this.pool.configure(this.spec(), shared ? { ...options, size: 0, max: 0 } : { ...options, ...this.poolBounds() });
    shared?.configure(this.spec(), { ...options, onChange: () => this.emit({ type: 'poolChanged', pool: this.poolSnapshot() }) });
  }

  private poolBounds(): { size: number; max: number } {
    return enginePoolBounds(this.config, this.options.oneShot === true);
  }

  /** What a pooled container must outlive besides its idle time: one run (held time included), or a whole session of them. */
  private maxRunSec(): number {
    return this.config.limits.maxTimeoutSec + (this.config.maxHeldSec ?? 0) + (this.config.sessionMaxSec ?? 0);
  }

  private poolSnapshot(): PoolSnapshot {
    return this.backendInUse.sharedPool?.snapshot() ?? this.pool.snapshot();
  }

  get backend(): SandboxBackend {
    return this.backendInUse;
  }

  /**
   * Switch backends live (podman/docker ↔ kubernetes): idle pooled sandboxes go, new runs use the new
   * one. Runs in flight finish where they are; their clean-up uses the backend they started on.
   */
  setBackend(backend: SandboxBackend): void {
    if (backend === this.backendInUse) return;
    void this.backendInUse.sharedPool?.dispose().catch(() => {});
    this.backendInUse = backend;
    this.pool.setBackend(this.creator.for(backend));
    this.layerPools.setBackend(this.creator.for(backend));
    if (!this.stopped) this.configurePool();
    void reapOrphans(backend, this.owner).catch(() => {});
  }

  get currentConfig(): EngineConfig {
    return this.config;
  }

  /** Limits, image or pool changes apply to the next run; the pool drains and refills if needed. */
  updateConfig(patch: Partial<EngineConfig>): void {
    this.config = { ...this.config, ...patch };
    this.creator.forgetImages();
    void this.layerPools.dispose(); // ready sandboxes made for the old limits or image go now, not at their idle end
    this.configurePool();
    this.pump();
  }

  /** While paused, new runs are refused at once (with a message saying so); runs in flight go on. */
  get paused(): boolean {
    return this.pausedFlag;
  }

  setPaused(paused: boolean): void {
    if (paused === this.pausedFlag) return;
    this.pausedFlag = paused;
    this.emit({ type: 'pausedChanged', paused });
  }

  /** For producers beside the engine (the proxy) whose events belong on the same stream. */
  publish(event: Extract<EngineEvent, { type: 'toolCall' | 'serverStateChanged' | 'approvalRequested' | 'approvalResolved' }>): void {
    this.emit(event);
  }

  subscribe(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): EngineSnapshot {
    return {
      running: [...this.running.values()].map((j) => ({
        ...j.summary,
        startedAt: j.startedAt,
        ...(j.containerName ? { containerName: j.containerName } : {}),
      })),
      queued: this.queue.map((j) => j.summary),
      pool: this.poolSnapshot(),
    };
  }

  /**
   * Why a run submitted now would be turned away (busy, paused, shutting down), or null. `alsoWaiting`:
   * runs admitted elsewhere that will join the queue (runs installing packages) count toward the limit.
   */
  refusal(alsoWaiting = 0): string | null {
    return admissionRefusal({ stopped: this.stopped, paused: this.pausedFlag, queued: this.queue.length, running: this.running.size }, this.config, alsoWaiting);
  }

  /** `session`: a call of a session (its sandbox is kept, paused, between calls; see sessions/). */
  submit(request: ExecutionRequest, options: SubmitOptions = {}): ExecutionHandle {
    const id = randomUUID();
    if (this.startGate.isOpen || this.stopped) return this.admit(id, request, options);
    let forward!: (handle: ExecutionHandle) => void;
    const result = new Promise<ExecutionResult>((resolve) => (forward = (handle) => void handle.result.then(resolve)));
    const room = (this.config.queueLimit ?? Infinity) + this.config.concurrency;
    const busy = (waiting: number) => busyMessage(waiting, this.config.queueLimit ?? Infinity);
    this.startGate.hold(id, room, options.signal, busy, (refusal) => forward(this.admit(id, request, refusal ? { ...options, signal: undefined } : options, refusal)));
    return { id, result };
  }

  private admit(id: string, request: ExecutionRequest, options: SubmitOptions, refusal?: Refusal): ExecutionHandle {
    const limits = this.config.limits;
    const summary = summaryOf(id, request, limits);
    let resolve!: (r: ExecutionResult) => void;
    const result = new Promise<ExecutionResult>((r) => (resolve = r));
    const job: Job = { summary, request, limits, abort: new AbortController(), rpc: options.rpc ?? this.options.rpc, session: options.session, resolve, result, startedAt: null };
    if (options.signal) {
      if (options.signal.aborted) job.abort.abort();
      else options.signal.addEventListener('abort', () => this.cancel(id), { once: true });
    }
    // Checked before the job joins the queue, so a flood of requests can never grow it past the limit.
    const refused = this.refusal(options.alsoWaiting);
    this.queue.push(job);
    this.emit({ type: 'queued', execution: summary, position: this.queue.length - 1 + this.running.size });
    if (refusal) this.finish(job, notRunResult(job.summary, job.limits, refusal.exitReason, refusal.message));
    else if (refused !== null) this.finish(job, notRunResult(job.summary, job.limits, 'runtime_error', refused));
    else this.pump();
    return { id, result };
  }

  /** Cancels a queued or running execution. Returns false if it is unknown or already finished. */
  cancel(id: string): boolean {
    if (this.startGate.refuse(id, { exitReason: 'cancelled', message: 'Execution cancelled before it started' })) return true;
    const queued = this.queue.find((j) => j.summary.id === id);
    if (queued) {
      this.finish(queued, notRunResult(queued.summary, queued.limits, 'cancelled', 'Execution cancelled before it started'));
      return true;
    }
    const job = this.running.get(id);
    if (!job) return false;
    job.abort.abort();
    return true;
  }

  /** Stops accepting work, cancels what is queued, gives running work `graceMs`, then kills everything. */
  async dispose(graceMs = 5000): Promise<void> {
    this.stopped = true;
    this.startGate.refuseAll({ exitReason: 'cancelled', message: 'Sandbar shut down before the run started' });
    for (const job of [...this.queue]) this.finish(job, notRunResult(job.summary, job.limits, 'cancelled', 'Sandbar shut down before the run started'));
    const running = [...this.running.values()];
    const settled = Promise.all(running.map((j) => j.result.then(() => undefined)));
    const grace = new Promise<void>((r) => setTimeout(r, graceMs).unref());
    await Promise.race([settled, grace]);
    for (const job of this.running.values()) job.abort.abort();
    await Promise.race([settled, new Promise<void>((r) => setTimeout(r, 3000).unref())]);
    // Used containers are on their way out by themselves (their client removes them): a moment for that
    // first, so a clean exit costs no extra `rm` call, then force whatever is left.
    await Promise.race([Promise.allSettled([...this.cleanups]), new Promise<void>((r) => setTimeout(r, 1000).unref())]);
    await Promise.allSettled([this.pool.dispose(), this.layerPools.dispose(), this.backendInUse.sharedPool?.dispose(), this.destroy([...this.inUse]), ...this.cleanups]);
  }

  /** The container command line a run would get with these limits (runtime, image and profile as now). */
  previewArgs(limits: Limits): Promise<string[]> {
    return this.backend.describe({ ...this.spec(), limits }, 'sandbar-<run>');
  }

  spec(): ContainerSpec {
    return containerSpecOf(this.config, this.preloadUsage.inUse(), this.backendInUse.features);
  }

  private emit(event: EngineEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken subscriber must not break the run or the other subscribers.
      }
    }
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.config.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running.set(job.summary.id, job);
      void this.execute(job);
    }
  }

  private async execute(job: Job): Promise<void> {
    const { id } = job.summary;
    if (job.abort.signal.aborted) {
      this.finish(job, notRunResult(job.summary, job.limits, 'cancelled', 'Execution cancelled before it started'));
      return;
    }
    // Made before a sandbox is taken: a backend that cannot carry egress refuses the run without one.
    const egress = await runEgressOf(this.options.egress, this.backendInUse.features, (record) => this.emit({ type: 'egress', id, record }));
    if (egress && 'refused' in egress) return this.finish(job, notRunResult(job.summary, job.limits, 'runtime_error', egress.refused));
    let container: SandboxContainer;
    let warm: boolean;
    const session = job.session;
    try {
      if (session?.container) {
        container = session.container;
        warm = true;
        const wrongLayer = sessionLayerRefusal(this.layerPools.layerOf(container), job.request.packages?.layer);
        if (wrongLayer) {
          this.finish(job, notRunResult(job.summary, job.limits, 'runtime_error', wrongLayer));
          return;
        }
        await session.beforeRun(container);
      } else {
        const own = packageSpecOf(this.spec(), this.config.packageLayers, job.request.packages?.layer);
        ({ container, warm } = await (own ? this.layerPools.acquire(id, own) : this.pool.acquire(id)));
        if (session) {
          container.holdForSession();
          session.opened(container);
        }
      }
    } catch (err) {
      const result = notRunResult(job.summary, job.limits, 'runtime_error', errorMessage(err));
      job.sessionTold = true;
      session?.afterRun(null, result, null);
      this.finish(job, result);
      return;
    }
    this.inUse.add(container);
    job.startedAt = Date.now();
    job.containerName = container.name;
    this.emit({ type: 'started', id, at: job.startedAt, containerName: container.name, warm });
    let outcome: RunOutcome | undefined;
    try {
      outcome = await runInContainer(container, {
        executionId: id,
        code: job.request.code,
        context: job.request.context ?? {},
        timeoutSec: job.summary.timeoutSec,
        ...(this.config.maxHeldSec !== undefined ? { maxHeldMs: this.config.maxHeldSec * 1000 } : {}),
        // While every call in flight waits for a person the container is frozen, where its backend can pause.
        freeze: (op) => (op === 'pause' ? this.backendOf(container).pause(container.name) : this.backendOf(container).resume(container.name)),
        outputCapBytes: job.limits.outputCapBytes,
        memory: job.limits.memory,
        signal: job.abort.signal,
        ...(job.rpc ? { rpc: job.rpc } : {}),
        ...(this.config.maxToolCallsInFlight ? { maxRpcInFlight: this.config.maxToolCallsInFlight } : {}),
        ...(this.config.artifactCaps ? { artifactCaps: this.config.artifactCaps } : {}),
        ...(this.config.preload == null ? { watchImports: DEFAULT_PRELOAD } : {}),
        ...(session ? { session: true, checkpoint: session.checkpoints } : {}),
        ...(egress ? { egress } : {}),
        onOutput: (stream, data) => this.emit({ type: 'output', id, stream, data }),
        kill: (c) => this.destroy([c]),
      });
    } finally {
      // A session's sandbox that waits for its next call stays (the session pauses it); any other goes.
      if (!(session && outcome?.session === 'open' && container.isAlive)) this.retire(container);
    }
    const { importedModules, session: sessionState, checkpoint, ...ended } = outcome;
    // The default preloads follow what the runs import: a change replaces the idle pooled containers.
    if (this.config.preload == null && importedModules && this.preloadUsage.record(importedModules)) {
      this.pool.configure(this.spec(), { ...this.poolBounds(), maxRunSec: this.maxRunSec() });
    }
    const result: ExecutionResult = {
      id,
      ...ended,
      timeoutSec: job.summary.timeoutSec,
      limits: job.limits,
      queuedAt: job.summary.queuedAt,
      durationMs: outcome.finishedAt - outcome.startedAt,
      containerName: container.name,
      ...this.creator.foldersOf(container),
    };
    job.sessionTold = true;
    session?.afterRun(container, result, sessionState === 'open' && !container.isAlive ? null : (sessionState ?? null), checkpoint);
    this.finish(job, result);
  }

  /** The backend a sandbox lives on (a session pauses, samples and ends its own there). */
  backendOf(container: SandboxContainer): SandboxBackend {
    return this.madeBy.get(container) ?? this.backendInUse;
  }

  /** Ends a sandbox the engine no longer runs anything in (a session's, when the session ends). */
  async discard(container: SandboxContainer): Promise<void> {
    try {
      await this.destroy([container]);
    } finally {
      this.inUse.delete(container);
    }
  }

  private finish(job: Job, result: ExecutionResult): void {
    const q = this.queue.indexOf(job);
    if (q !== -1) this.queue.splice(q, 1);
    this.running.delete(job.summary.id);
    if (job.session && !job.sessionTold) job.session.notRun();
    job.resolve(result);
    this.emit({ type: 'finished', result });
    this.pump();
  }

  /** A used container exits by itself after its exit frame; make sure, off the result's path. */
  private retire(container: SandboxContainer): void {
    const cleanup = (async () => {
      const exited = await Promise.race([container.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 5000).unref())]);
      if (!exited) await this.destroy([container]);
      this.inUse.delete(container);
    })();
    this.cleanups.add(cleanup);
    void cleanup.finally(() => this.cleanups.delete(cleanup));
  }

  private async destroy(containers: SandboxContainer[]): Promise<void> {
    const alive = containers.filter((c) => c.isAlive);
    if (alive.length === 0) return;
    try {
      const byBackend = new Map<SandboxBackend, string[]>();
      for (const c of alive) {
        const backend = this.madeBy.get(c) ?? this.backendInUse;
        byBackend.set(backend, [...(byBackend.get(backend) ?? []), c.name]);
      }
      await Promise.all([...byBackend].map(([backend, names]) => backend.kill(names)));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    } finally {
      for (const c of alive) c.detachClient();
    }
  }
}
