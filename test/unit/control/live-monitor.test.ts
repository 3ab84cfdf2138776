// The Live view's source: broadcasts from engine events, followed output batched per connection, the
// bounded tail, the recent list and memory sampling. The engine is a small fake driven by the test.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveMonitor, OUTPUT_FLUSH_MS } from '../../../electron/control/live-monitor.js';
import { TAIL_LIMIT_CHARS } from '../../../electron/control/output-tail.js';
import type { Engine } from '../../../electron/sandbox/engine.js';
import type { EventName, Events } from '../../../shared/contract.js';
import type { EngineEvent, ExecutionResult, ExecutionSummary, PoolState, Stream, ToolCallRecord } from '../../../shared/execution.js';
import { LimitsSchema } from '../../../shared/limits.js';

type RunningEntry = ExecutionSummary & { startedAt: number | null; containerName?: string };

/** What LiveMonitor uses of the engine, with the engine's order: state changes first, then the event. */
class FakeEngine {
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

interface Sent {
  to: string;
  event: EventName;
  data: unknown;
}

function setup(sampleMemory: (names: string[]) => Promise<{ name: string; memoryBytes: number }[]> = async () => []) {
  const engine = new FakeEngine();
  /** Broadcasts (`to: '*'`) and targeted sends in one ordered log. */
  const sent: Sent[] = [];
  const sample = vi.fn(sampleMemory);
  const monitor = new LiveMonitor({
    engine: engine as unknown as Engine,
    sampleMemory: sample,
    broadcast: (event, data) => void sent.push({ to: '*', event, data }),
    sendTo: (to, event, data) => void sent.push({ to, event, data }),
  });
  monitor.start();
  const of = <E extends EventName>(event: E, to?: string) =>
    sent.filter((s) => s.event === event && (to === undefined || s.to === to)).map((s) => s.data as Events[E]);
  const chunks = (to: string) => of('output.chunk', to);
  return { engine, monitor, sent, sample, of, chunks };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('LiveMonitor broadcasts', () => {
  it('announces a queued run and the new counts', () => {
    const { engine, sent } = setup();
    const execution = engine.queue('r1');
    expect(sent).toEqual([
      { to: '*', event: 'execution.queued', data: { type: 'queued', execution, position: 0 } },
      { to: '*', event: 'live.changed', data: { paused: false, pool: engine.pool, running: 0, queued: 1 } },
    ]);
  });

  it('announces a started run and the new counts', () => {
    const { engine, sent } = setup();
    engine.queue('r1');
    sent.length = 0;
    engine.start('r1');
    expect(sent).toEqual([
      { to: '*', event: 'execution.started', data: { type: 'started', id: 'r1', at: 2000, containerName: 'sandbar-r1', warm: true } },
      { to: '*', event: 'live.changed', data: { paused: false, pool: engine.pool, running: 1, queued: 0 } },
    ]);
  });

  it('announces a finished run without its output but with the code, servers and client of the request', () => {
    const { engine, sent, of } = setup();
    const client = { name: 'claude-code', version: '1.2.3', transport: 'http' as const };
    engine.queue('r1', { code: 'print(42)', servers: ['github', 'fs'], client });
    engine.start('r1');
    sent.length = 0;
    const result = engine.finish('r1', { exitReason: 'error', exitCode: 1, message: 'boom' });

    const [finished] = of('execution.finished');
    expect(finished).toBeDefined();
    const { stdout: _o, stderr: _e, ...rest } = result;
    expect(finished!.result).toEqual({ ...rest, code: 'print(42)', servers: ['github', 'fs'], client });
    expect('stdout' in finished!.result).toBe(false);
    expect('stderr' in finished!.result).toBe(false);
    expect(sent.map((s) => s.event)).toEqual(['execution.finished', 'live.changed']);
    expect(of('live.changed').at(-1)).toEqual({ paused: false, pool: engine.pool, running: 0, queued: 0 });
  });

  it('announces a finished run’s artifacts as metadata only: no bytes go over the event stream', () => {
    const { engine, monitor, of } = setup();
    engine.queue('r1');
    engine.start('r1');
    const data = new Uint8Array(50_000).fill(7);
    engine.finish('r1', {
      artifacts: [{ name: 'figure-1.png', mimeType: 'image/png', size: 50_000, source: 'figure', width: 1200, height: 800, title: 'Sales', data }],
      refusedArtifacts: [{ name: 'figure-2.png', source: 'figure', reason: 'too large' }],
    });
    const [finished] = of('execution.finished');
    expect(finished!.result.artifacts).toEqual([{ name: 'figure-1.png', mimeType: 'image/png', size: 50_000, source: 'figure', width: 1200, height: 800, title: 'Sales' }]);
    expect(finished!.result.refusedArtifacts).toEqual([{ name: 'figure-2.png', source: 'figure', reason: 'too large' }]);
    expect(JSON.stringify(finished).length).toBeLessThan(2000);
    expect(JSON.stringify(monitor.snapshot().recent).length).toBeLessThan(2000);
    expect(monitor.snapshot().recent[0]!.artifacts).toEqual(finished!.result.artifacts);
  });

  it('a finished run it never saw queued still gets a code and servers, and no client', () => {
    const { engine, of } = setup();
    engine.finish('ghost');
    const [finished] = of('execution.finished');
    expect(finished!.result.code).toBe('');
    expect(finished!.result.servers).toEqual([]);
    expect('client' in finished!.result).toBe(false);
  });

  it('passes tool calls on as execution.toolCall, without a live.changed', () => {
    const { engine, sent } = setup();
    const call: ToolCallRecord = { executionId: 'r1', server: 'github', tool: 'search', startedAt: 5, durationMs: 12, bytesIn: 10, bytesOut: 200, isError: false };
    engine.emit({ type: 'toolCall', call });
    expect(sent).toEqual([{ to: '*', event: 'execution.toolCall', data: { call } }]);
  });

  it('sends live.changed on pool and pause changes, from the engine state', () => {
    const { engine, sent, of } = setup();
    engine.pool = { size: 3, ready: 1, starting: 2, lastError: 'pull failed', refilling: false };
    engine.emit({ type: 'poolChanged', pool: engine.pool });
    engine.paused = true;
    engine.emit({ type: 'pausedChanged', paused: true });
    expect(sent.map((s) => s.event)).toEqual(['live.changed', 'live.changed']);
    expect(of('live.changed')).toEqual([
      { paused: false, pool: { size: 3, ready: 1, starting: 2, lastError: 'pull failed', refilling: false }, running: 0, queued: 0 },
      { paused: true, pool: { size: 3, ready: 1, starting: 2, lastError: 'pull failed', refilling: false }, running: 0, queued: 0 },
    ]);
  });

  it('ignores server state changes', () => {
    const { engine, sent } = setup();
    engine.emit({ type: 'serverStateChanged', server: 'github', state: 'ready', error: null });
    expect(sent).toEqual([]);
  });

  it('stops listening on dispose', () => {
    const { engine, monitor, sent } = setup();
    monitor.dispose();
    expect(engine.listenerCount).toBe(0);
    engine.queue('r1');
    expect(sent).toEqual([]);
  });
});

describe('LiveMonitor followed output', () => {
  it('follow answers the tail so far, and null for an unknown execution', () => {
    const { engine, monitor } = setup();
    expect(monitor.follow('c1', 'nope')).toBeNull();
    engine.queue('r1');
    engine.start('r1');
    engine.output('r1', 'stdout', 'one\n');
    engine.output('r1', 'stderr', 'warn\n');
    engine.output('r1', 'stdout', 'two\n');
    expect(monitor.follow('c1', 'r1')).toEqual({ id: 'r1', stdout: 'one\ntwo\n', stderr: 'warn\n', clipped: false });
  });

  it('batches output: one chunk per followed execution per connection after 50 ms, streams apart, in order', () => {
    const { engine, monitor, sent, chunks } = setup();
    for (const id of ['r1', 'r2', 'r3']) {
      engine.queue(id);
      engine.start(id);
    }
    monitor.follow('A', 'r2');
    monitor.follow('A', 'r1');
    monitor.follow('B', 'r2');
    sent.length = 0;

    for (let i = 0; i < 10; i++) {
      engine.output('r1', 'stdout', `a${i} `);
      engine.output('r2', 'stdout', `b${i} `);
      engine.output('r2', 'stderr', `e${i} `);
      engine.output('r3', 'stdout', `unfollowed${i} `);
    }
    vi.advanceTimersByTime(OUTPUT_FLUSH_MS - 1);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);

    const r1 = Array.from({ length: 10 }, (_, i) => `a${i} `).join('');
    const r2 = Array.from({ length: 10 }, (_, i) => `b${i} `).join('');
    const e2 = Array.from({ length: 10 }, (_, i) => `e${i} `).join('');
    // Per execution in the order output first arrived, not the order of follow().
    expect(chunks('A')).toEqual([
      { id: 'r1', stdout: r1, stderr: '' },
      { id: 'r2', stdout: r2, stderr: e2 },
    ]);
    expect(chunks('B')).toEqual([{ id: 'r2', stdout: r2, stderr: e2 }]);
    expect(sent.every((s) => s.event === 'output.chunk' && s.to !== '*')).toBe(true);
    expect(sent).toHaveLength(3);
    expect(JSON.stringify(sent)).not.toContain('unfollowed');
  });

  it('keeps sending later batches, each one after its own 50 ms', () => {
    const { engine, monitor, chunks } = setup();
    engine.queue('r1');
    engine.start('r1');
    monitor.follow('A', 'r1');
    engine.output('r1', 'stdout', 'first');
    vi.advanceTimersByTime(OUTPUT_FLUSH_MS);
    engine.output('r1', 'stdout', 'second');
    engine.output('r1', 'stdout', '+');
    vi.advanceTimersByTime(OUTPUT_FLUSH_MS - 1);
    expect(chunks('A')).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(chunks('A')).toEqual([
      { id: 'r1', stdout: 'first', stderr: '' },
      { id: 'r1', stdout: 'second+', stderr: '' },
    ]);
    // Nothing new: no empty chunks.
    vi.advanceTimersByTime(OUTPUT_FLUSH_MS * 4);
    expect(chunks('A')).toHaveLength(2);
  });

  it('delivers only output printed after follow() as chunks (the rest came with the answer)', () => {
    const { engine, monitor, chunks } = setup();
    engine.queue('r1');
    engine.start('r1');
    engine.output('r1', 'stdout', 'before ');
    vi.advanceTimersByTime(OUTPUT_FLUSH_MS);
    expect(monitor.follow('A', 'r1')?.stdout).toBe('before ');
    engine.output('r1', 'stdout', 'after');
    vi.advanceTimersByTime(OUTPUT_FLUSH_MS);
    expect(chunks('A')).toEqual([{ id: 'r1', stdout: 'after', stderr: '' }]);
  });

  it('flushes pending output before announcing the run finished', () => {
    const { engine, monitor, sent } = setup();
    engine.queue('r1');
    engine.start('r1');
    monitor.follow('A', 'r1');
    sent.length = 0;
    engine.output('r1', 'stdout', 'last words');
    engine.finish('r1');
    expect(sent.map((s) => [s.to, s.event])).toEqual([
      ['A', 'output.chunk'],
      ['*', 'execution.finished'],
      ['*', 'live.changed'],
    ]);
    expect(sent[0]!.data).toEqual({ id: 'r1', stdout: 'last words', stderr: '' });
    // And nothing is sent again when the old timer would have fired.
    vi.advanceTimersByTime(OUTPUT_FLUSH_MS * 2);
    expect(sent).toHaveLength(3);
    expect(monitor.follow('A', 'r1')).toBeNull();
  });

  it('unfollow stops delivery to that connection only', () => {
    const { engine, monitor, chunks } = setup();
    engine.queue('r1');
    engine.start('r1');
    monitor.follow('A', 'r1');
    monitor.follow('B', 'r1');
    monitor.unfollow('A', 'r1');
    engine.output('r1', 'stdout', 'x');
    vi.advanceTimersByTime(OUTPUT_FLUSH_MS);
    expect(chunks('A')).toEqual([]);
    expect(chunks('B')).toEqual([{ id: 'r1', stdout: 'x', stderr: '' }]);
  });

  it('unfollow also drops output already waiting for that connection', () => {
    const { engine, monitor, chunks } = setup();
    engine.queue('r1');
    engine.start('r1');
    monitor.follow('A', 'r1');
    engine.output('r1', 'stdout', 'pending');
    monitor.unfollow('A', 'r1');
    vi.advanceTimersByTime(OUTPUT_FLUSH_MS);
    expect(chunks('A')).toEqual([]);
  });

  it('following again within a batch does not send the same output twice', () => {
    const { engine, monitor, chunks } = setup();
    engine.queue('r1');
    engine.start('r1');
    monitor.follow('A', 'r1');
    engine.output('r1', 'stdout', 'once ');
    // A reload re-subscribes: its answer carries "once ", so the waiting batch must not repeat it.
    expect(monitor.follow('A', 'r1')?.stdout).toBe('once ');
    engine.output('r1', 'stdout', 'after');
    vi.advanceTimersByTime(OUTPUT_FLUSH_MS);
    expect(chunks('A')).toEqual([{ id: 'r1', stdout: 'after', stderr: '' }]);
  });

  it('a closed connection gets neither its pending output nor later output', () => {
    const { engine, monitor, sent } = setup();
    engine.queue('r1');
    engine.start('r1');
    monitor.follow('A', 'r1');
    sent.length = 0;
    engine.output('r1', 'stdout', 'pending');
    monitor.connectionClosed('A');
    engine.output('r1', 'stdout', 'later');
    vi.advanceTimersByTime(OUTPUT_FLUSH_MS * 2);
    engine.finish('r1');
    expect(sent.filter((s) => s.event === 'output.chunk')).toEqual([]);
  });

  it('bounds the tail a late follower gets and says it was clipped', () => {
    const { engine, monitor } = setup();
    engine.queue('r1');
    engine.start('r1');
    const line = 'y'.repeat(64 * 1024 - 1) + '\n';
    for (let i = 0; i < (TAIL_LIMIT_CHARS / (64 * 1024)) * 2; i++) engine.output('r1', 'stdout', line);
    engine.output('r1', 'stdout', 'THE END');
    engine.output('r1', 'stderr', 'small');
    const buffer = monitor.follow('late', 'r1');
    expect(buffer?.stdout.length).toBe(TAIL_LIMIT_CHARS);
    expect(buffer?.stdout.endsWith('\nTHE END')).toBe(true);
    expect(buffer?.stderr).toBe('small');
    expect(buffer?.clipped).toBe(true);
  });
});

describe('LiveMonitor snapshot and recent runs', () => {
  it('keeps at most 20 finished runs, newest first', () => {
    const { engine, monitor } = setup();
    for (let i = 0; i < 25; i++) {
      engine.queue(`r${i}`);
      engine.start(`r${i}`);
      engine.finish(`r${i}`);
    }
    const recent = monitor.snapshot().recent;
    expect(recent.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => `r${24 - i}`));
    // A copy: changing it does not change the monitor.
    recent.length = 0;
    expect(monitor.snapshot().recent).toHaveLength(20);
  });

  it('reports running and queued runs, the pool, the pause and the memory limit in bytes', () => {
    const { engine, monitor } = setup();
    engine.queue('r1');
    engine.queue('r2');
    engine.start('r1');
    engine.paused = true;
    engine.currentConfig = { limits: { memory: '1g' } };
    const snapshot = monitor.snapshot();
    expect(snapshot.running).toEqual([{ ...engine.running[0]!, memoryBytes: null }]);
    expect(snapshot.queued.map((q) => q.id)).toEqual(['r2']);
    expect(snapshot.pool).toEqual(engine.pool);
    expect(snapshot.paused).toBe(true);
    expect(snapshot.memoryLimitBytes).toBe(1024 ** 3);
  });
});

describe('LiveMonitor memory sampling', () => {
  it('samples running containers about once a second and broadcasts by execution id', async () => {
    const { engine, monitor, sample, of } = setup(async (names) => [
      ...names.map((name, i) => ({ name, memoryBytes: (i + 1) * 1_000_000 })),
      { name: 'some-other-container', memoryBytes: 1 },
    ]);
    engine.queue('r1');
    engine.queue('r2');
    engine.start('r1');
    engine.start('r2');
    expect(sample).not.toHaveBeenCalled();
    expect(monitor.snapshot().running.map((r) => r.memoryBytes)).toEqual([null, null]);

    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(1);
    expect(sample).toHaveBeenCalledWith(['sandbar-r1', 'sandbar-r2']);
    expect(of('execution.stats')).toEqual([
      {
        samples: [
          { id: 'r1', memoryBytes: 1_000_000 },
          { id: 'r2', memoryBytes: 2_000_000 },
        ],
      },
    ]);
    const running = monitor.snapshot().running;
    expect(running.find((r) => r.id === 'r1')?.memoryBytes).toBe(1_000_000);
    expect(running.find((r) => r.id === 'r2')?.memoryBytes).toBe(2_000_000);

    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(2);
  });

  it('stops sampling when nothing runs and forgets the finished run’s memory', async () => {
    const { engine, monitor, sample, of } = setup(async (names) => names.map((name) => ({ name, memoryBytes: 42 })));
    engine.queue('r1');
    engine.start('r1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(1);
    engine.finish('r1');

    await vi.advanceTimersByTimeAsync(5000);
    expect(sample).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(of('execution.stats')).toHaveLength(1);

    // A new run starts sampling again, from no sample.
    engine.queue('r2');
    engine.start('r2');
    expect(monitor.snapshot().running[0]?.memoryBytes).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(2);
    expect(sample).toHaveBeenLastCalledWith(['sandbar-r2']);
  });

  it('sends no stats when the runtime reports none of the running containers', async () => {
    const { engine, sample, of } = setup(async () => [{ name: 'unrelated', memoryBytes: 9 }]);
    engine.queue('r1');
    engine.start('r1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(1);
    expect(of('execution.stats')).toEqual([]);
  });

  it('skips a failed sample and tries again on the next tick', async () => {
    let fail = true;
    const { engine, monitor, sample, of } = setup(async (names) => {
      if (fail) throw new Error('runtime busy');
      return names.map((name) => ({ name, memoryBytes: 7 }));
    });
    engine.queue('r1');
    engine.start('r1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(1);
    expect(of('execution.stats')).toEqual([]);
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(of('execution.stats')).toEqual([{ samples: [{ id: 'r1', memoryBytes: 7 }] }]);
    expect(monitor.snapshot().running[0]?.memoryBytes).toBe(7);
  });

  it('does not record a sample that lands after its run finished', async () => {
    let release!: (value: { name: string; memoryBytes: number }[]) => void;
    const { engine, monitor, sample, of } = setup(() => new Promise((resolve) => (release = resolve)));
    engine.queue('r1');
    engine.start('r1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sample).toHaveBeenCalledTimes(1);
    engine.finish('r1');
    release([{ name: 'sandbar-r1', memoryBytes: 99 }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(of('execution.stats')).toEqual([]);
    expect(monitor.snapshot().running).toEqual([]);
  });
});
