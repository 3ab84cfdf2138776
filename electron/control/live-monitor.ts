// The Live view's source of truth: running and queued runs, recent finished ones, memory samples, and
// output streamed to the connections that subscribed to an execution, batched about every 50 ms.
import type { Events, FinishedExecution, LiveSnapshot, OutputBuffer } from '../../shared/contract.js';
import type { EngineEvent, ExecutionSummary } from '../../shared/execution.js';
import { parseSize } from '../../shared/limits.js';
import type { Engine } from '../sandbox/engine.js';
import { OutputBatch, OutputTail } from './output-tail.js';

export const OUTPUT_FLUSH_MS = 50;
const RECENT_LIMIT = 20;
const STATS_INTERVAL_MS = 1000;

export interface LiveMonitorOptions {
  engine: Engine;
  /** Memory in use per container name (the runtime's stats). */
  sampleMemory: (containerNames: string[]) => Promise<{ name: string; memoryBytes: number }[]>;
  broadcast: <E extends keyof Events>(event: E, data: Events[E]) => void;
  sendTo: <E extends keyof Events>(connectionId: string, event: E, data: Events[E]) => void;
  /**
   * Whether any panel or tray is connected now. Without one, the summary of a queue or pool change is not
   * even computed (a lone call's queued, started and finished would each take an engine snapshot for
   * nobody); a connection that arrives later asks for the snapshot. Default: always.
   */
  listening?: () => boolean;
}

export class LiveMonitor {
  private readonly tails = new Map<string, OutputTail>();
  private readonly summaries = new Map<string, ExecutionSummary>();
  private readonly memory = new Map<string, number>();
  private readonly recent: FinishedExecution[] = [];
  /** connection → execution ids it follows; and the output waiting for that connection. */
  private readonly subscriptions = new Map<string, Set<string>>();
  private readonly batches = new Map<string, OutputBatch>();
  private flushTimer: NodeJS.Timeout | undefined;
  private statsTimer: NodeJS.Timeout | undefined;
  private sampling = false;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly options: LiveMonitorOptions) {}

  start(): void {
    this.unsubscribe = this.options.engine.subscribe((event) => this.onEvent(event));
  }

  dispose(): void {
    this.unsubscribe?.();
    clearTimeout(this.flushTimer);
    clearInterval(this.statsTimer);
  }

  snapshot(): LiveSnapshot {
    const engine = this.options.engine.snapshot();
    return {
      running: engine.running.map((r) => ({ ...r, memoryBytes: this.memory.get(r.id) ?? null })),
      queued: engine.queued,
      recent: [...this.recent],
      pool: engine.pool,
      paused: this.options.engine.paused,
      memoryLimitBytes: parseSize(this.options.engine.currentConfig.limits.memory),
    };
  }

  /** Starts following one execution for one connection; answers with what was printed so far. */
  follow(connectionId: string, id: string): OutputBuffer | null {
    const tail = this.tails.get(id);
    if (!tail) return null;
    let ids = this.subscriptions.get(connectionId);
    if (!ids) this.subscriptions.set(connectionId, (ids = new Set()));
    ids.add(id);
    // The answer includes everything so far; output already batched for this connection would repeat it.
    this.batches.get(connectionId)?.discard(id);
    return { id, stdout: tail.stdout, stderr: tail.stderr, clipped: tail.clipped };
  }

  unfollow(connectionId: string, id: string): void {
    this.subscriptions.get(connectionId)?.delete(id);
    this.batches.get(connectionId)?.discard(id);
  }

  connectionClosed(connectionId: string): void {
    this.subscriptions.delete(connectionId);
    this.batches.delete(connectionId);
  }

  private onEvent(event: EngineEvent): void {
    switch (event.type) {
      case 'queued':
        this.summaries.set(event.execution.id, event.execution);
        this.tails.set(event.execution.id, new OutputTail());
        this.options.broadcast('execution.queued', event);
        return this.liveChanged();
      case 'started':
        this.options.broadcast('execution.started', event);
        this.ensureSampling();
        return this.liveChanged();
      case 'output':
        this.tails.get(event.id)?.append(event.stream, event.data);
        for (const [connectionId, ids] of this.subscriptions) {
          if (!ids.has(event.id)) continue;
          let batch = this.batches.get(connectionId);
          if (!batch) this.batches.set(connectionId, (batch = new OutputBatch()));
          batch.add(event.id, event.stream, event.data);
        }
        this.flushTimer ??= setTimeout(() => this.flush(), OUTPUT_FLUSH_MS);
        return;
      case 'finished': {
        // Output still waiting is delivered before the run is announced as finished.
        this.flush();
        const { stdout: _o, stderr: _e, artifacts, ...result } = event.result;
        const summary = this.summaries.get(result.id);
        const finished: FinishedExecution = {
          ...result,
          code: summary?.code ?? '',
          servers: summary?.servers ?? [],
          ...(summary?.client ? { client: summary.client } : {}),
          // Metadata only: the bytes stay in the history, and the panel asks for the ones it shows.
          ...(artifacts?.length ? { artifacts: artifacts.map(({ data: _d, ...meta }) => meta) } : {}),
        };
        this.recent.unshift(finished);
        this.recent.length = Math.min(this.recent.length, RECENT_LIMIT);
        this.tails.delete(result.id);
        this.summaries.delete(result.id);
        this.memory.delete(result.id);
        for (const ids of this.subscriptions.values()) ids.delete(result.id);
        this.options.broadcast('execution.finished', { result: finished });
        return this.liveChanged();
      }
      case 'toolCall':
        return this.options.broadcast('execution.toolCall', { call: event.call });
      case 'egress':
        return this.options.broadcast('execution.egress', { id: event.id, record: event.record });
      case 'poolChanged':
      case 'pausedChanged':
        return this.liveChanged();
      case 'serverStateChanged':
        return;
    }
  }

  private liveChanged(): void {
    if (this.options.listening && !this.options.listening()) return;
    const s = this.options.engine.snapshot();
    this.options.broadcast('live.changed', { paused: this.options.engine.paused, pool: s.pool, running: s.running.length, queued: s.queued.length });
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    for (const [connectionId, batch] of this.batches) {
      for (const chunk of batch.drain()) this.options.sendTo(connectionId, 'output.chunk', chunk);
    }
  }

  /** Samples memory about once a second while anything runs; stops when nothing does. */
  private ensureSampling(): void {
    if (this.statsTimer) return;
    this.statsTimer = setInterval(() => void this.sample(), STATS_INTERVAL_MS);
    this.statsTimer.unref();
  }

  private async sample(): Promise<void> {
    const running = this.options.engine.snapshot().running.filter((r) => r.containerName);
    if (running.length === 0) {
      clearInterval(this.statsTimer);
      this.statsTimer = undefined;
      return;
    }
    if (this.sampling) return;
    this.sampling = true;
    try {
      const usage = await this.options.sampleMemory(running.map((r) => r.containerName!));
      const byName = new Map(usage.map((u) => [u.name, u.memoryBytes]));
      const samples = running.flatMap((r) => {
        const bytes = byName.get(r.containerName!);
        if (bytes === undefined || !this.tails.has(r.id)) return [];
        this.memory.set(r.id, bytes);
        return [{ id: r.id, memoryBytes: bytes }];
      });
      if (samples.length) this.options.broadcast('execution.stats', { samples });
    } catch {
      // A sample that fails (runtime busy, container just ended) is simply skipped.
    } finally {
      this.sampling = false;
    }
  }
}
