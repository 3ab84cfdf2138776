// The Live view's source: broadcasts from engine events, followed output batched per connection, the
// bounded tail, the recent list and memory sampling. The engine is a small fake driven by the test.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OUTPUT_FLUSH_MS } from '../../../electron/control/live-monitor.js';
import { TAIL_LIMIT_CHARS } from '../../../electron/control/output-tail.js';
import type { ToolCallRecord } from '../../../shared/execution.js';
import { setup } from './live-monitor-fake.js';

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

  it('passes egress records on as execution.egress, without a live.changed', () => {
    const { engine, sent } = setup();
    const record = { host: 'api.example.com', port: 443, decision: 'denied' as const, reason: 'not allowed', bytesOut: 0, bytesIn: 0 };
    engine.emit({ type: 'egress', id: 'r1', record });
    expect(sent).toEqual([{ to: '*', event: 'execution.egress', data: { id: 'r1', record } }]);
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
