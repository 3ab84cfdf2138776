// The Live view's tests' fake engine (what LiveMonitor uses of it, in the engine's order: state changes
// first, then the event) and the monitor wired to it, logging every broadcast and targeted send.
import { vi } from 'vitest';
import { LiveMonitor } from '../../../electron/control/live-monitor.js';
import type { Engine } from '../../../electron/sandbox/engine.js';
import type { EventName, Events } from '../../../shared/contract.js';
import type { EngineEvent, ExecutionResult, ExecutionSummary, PoolState, Stream } from '../../../shared/execution.js';
import { LimitsSchema } from '../../../shared/limits.js';

export type RunningEntry = ExecutionSummary & { startedAt: number | null; containerName?: string };

/** What LiveMonitor uses of the engine, with the engine's order: state changes first, then the event. */
export class FakeEngine {
  private readonly listeners = new Set<(event: EngineEvent) => void>();
  paused = false;
  currentConfig = { limits: { memory: '512m' } };
  running: RunningEntry[] = [];
  queued: ExecutionSummary[] = [];
  pool: PoolState = { size: 2, ready: 2, starting: 0, lastError: null, refilling: false };

  subscribe(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  snapshot() {
    return { running: [...this.running], queued: [...this.queued], pool: { ...this.pool } };
  }

  emit(event: EngineEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  queue(id: string, extra: Partial<ExecutionSummary> = {}): ExecutionSummary {
    const execution: ExecutionSummary = { id, code: `print(${JSON.stringify(id)})`, servers: [], timeoutSec: 30, queuedAt: 1000, ...extra };
    this.queued.push(execution);
    this.emit({ type: 'queued', execution, position: this.queued.length - 1 + this.running.length });
    return execution;
  }

  start(id: string): void {
    const summary = this.queued.find((q) => q.id === id)!;
    this.queued = this.queued.filter((q) => q.id !== id);
    const containerName = `sandbar-${id}`;
    this.running.push({ ...summary, startedAt: 2000, containerName });
    this.emit({ type: 'started', id, at: 2000, containerName, warm: true });
  }

  output(id: string, stream: Stream, data: string): void {
    this.emit({ type: 'output', id, stream, data });
  }

  finish(id: string, overrides: Partial<ExecutionResult> = {}): ExecutionResult {
    this.queued = this.queued.filter((q) => q.id !== id);
    this.running = this.running.filter((r) => r.id !== id);
    const result: ExecutionResult = {
      id,
      exitReason: 'success',
      exitCode: 0,
      stdout: 'full stdout',
      stderr: 'full stderr',
      stdoutTruncated: false,
      stderrTruncated: false,
      timeoutSec: 30,
      limits: LimitsSchema.parse({}),
      queuedAt: 1000,
      startedAt: 2000,
      finishedAt: 3000,
      durationMs: 1000,
      containerName: `sandbar-${id}`,
      ...overrides,
    };
    this.emit({ type: 'finished', result });
    return result;
  }
}

export interface Sent {
  to: string;
  event: EventName;
  data: unknown;
}

export function setup(sampleMemory: (names: string[]) => Promise<{ name: string; memoryBytes: number }[]> = async () => [], listening?: () => boolean) {
  const engine = new FakeEngine();
  /** Broadcasts (`to: '*'`) and targeted sends in one ordered log. */
  const sent: Sent[] = [];
  const sample = vi.fn(sampleMemory);
  const monitor = new LiveMonitor({
    engine: engine as unknown as Engine,
    sampleMemory: sample,
    broadcast: (event, data) => void sent.push({ to: '*', event, data }),
    sendTo: (to, event, data) => void sent.push({ to, event, data }),
    ...(listening ? { listening } : {}),
  });
  monitor.start();
  const of = <E extends EventName>(event: E, to?: string) =>
    sent.filter((s) => s.event === event && (to === undefined || s.to === to)).map((s) => s.data as Events[E]);
  const chunks = (to: string) => of('output.chunk', to);
  return { engine, monitor, sent, sample, of, chunks };
}
