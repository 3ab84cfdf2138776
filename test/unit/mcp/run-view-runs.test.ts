// The runs the run view asks about: found by their caller and arguments (key order aside) or by id, never
// another caller's; output kept as it comes; states from the engine's events; finished runs forgotten
// after a while, and the count bounded with finished runs going first.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../../../shared/execution.js';
import { KEEP_FINISHED_MS, MAX_TRACKED_RUNS, RunViewRuns, STATUS_TAIL_CHARS } from '../../../electron/mcp/run-view-runs.js';

/** The engine's event stream and snapshot, the two things the registry reads of it. */
function engineEvents() {
  const listeners = new Set<(e: EngineEvent) => void>();
  const running: { id: string; startedAt: number | null }[] = [];
  return {
    subscribe: (l: (e: EngineEvent) => void) => (listeners.add(l), () => listeners.delete(l)),
    snapshot: () => ({ running, queued: [] }) as never,
    emit: (e: EngineEvent) => listeners.forEach((l) => l(e)),
    running,
    listeners,
  };
}
const finished = (id: string) => ({ type: 'finished', result: { id } }) as unknown as EngineEvent;

afterEach(() => vi.useRealTimers());

describe('RunViewRuns', () => {
  it("finds the caller's newest run with the same arguments, in any key order, and never another caller's", () => {
    const engine = engineEvents();
    const runs = new RunViewRuns(engine);
    runs.track('r1', 'client-token:a', { code: 'print(1)', timeout: 5 });
    runs.track('r2', 'client-token:a', { timeout: 5, code: 'print(1)' });
    runs.track('r3', 'stdio:b', { code: 'print(1)', timeout: 5 });
    expect(runs.find('client-token:a', { arguments: { code: 'print(1)', timeout: 5 } })?.id).toBe('r2');
    expect(runs.find('stdio:b', { arguments: { timeout: 5, code: 'print(1)' } })?.id).toBe('r3');
    expect(runs.find('stdio:c', { arguments: { code: 'print(1)', timeout: 5 } })).toBeUndefined();
    expect(runs.find('client-token:a', { runId: 'r3' })).toBeUndefined();
    expect(runs.find('client-token:a', { runId: 'r1' })?.id).toBe('r1');
    expect(runs.find('client-token:a', { arguments: { code: 'print(2)' } })).toBeUndefined();
    expect(runs.find('client-token:a', {})).toBeUndefined();
  });

  it('follows the run: queued, running with its output so far, finished', () => {
    const engine = engineEvents();
    const runs = new RunViewRuns(engine);
    runs.track('r1', 'c', { code: 'x' });
    const run = () => runs.status(runs.find('c', { runId: 'r1' }));
    expect(run()).toEqual({ state: 'queued', runId: 'r1', stdout: '', stderr: '', clipped: false });
    engine.emit({ type: 'started', id: 'r1', at: 1, containerName: 'c1', warm: true });
    engine.emit({ type: 'output', id: 'r1', stream: 'stdout', data: 'a\n' });
    engine.emit({ type: 'output', id: 'r1', stream: 'stderr', data: 'oops\n' });
    engine.emit({ type: 'output', id: 'other', stream: 'stdout', data: 'not mine' });
    engine.emit({ type: 'output', id: 'r1', stream: 'stdout', data: 'b\n' });
    expect(run()).toEqual({ state: 'running', runId: 'r1', stdout: 'a\nb\n', stderr: 'oops\n', clipped: false });
    engine.emit(finished('r1'));
    expect(run().state).toBe('finished');
    expect(runs.status(undefined)).toEqual({ state: 'unknown', stdout: '', stderr: '', clipped: false });
  });

  it('hands the View only the end of a long output, saying it is clipped', () => {
    const engine = engineEvents();
    const runs = new RunViewRuns(engine);
    runs.track('r1', 'c', {});
    engine.emit({ type: 'output', id: 'r1', stream: 'stdout', data: 'a'.repeat(STATUS_TAIL_CHARS) + 'END' });
    const status = runs.status(runs.find('c', { runId: 'r1' }));
    expect(status.stdout).toHaveLength(STATUS_TAIL_CHARS);
    expect(status.stdout.endsWith('END')).toBe(true);
    expect(status.clipped).toBe(true);
  });

  it('sees a run already started when it is tracked as running', () => {
    const engine = engineEvents();
    engine.running.push({ id: 'r1', startedAt: 5 });
    const runs = new RunViewRuns(engine);
    runs.track('r1', 'c', {});
    expect(runs.status(runs.find('c', { runId: 'r1' })).state).toBe('running');
  });

  it('forgets a finished run after a while, and keeps a live one', () => {
    vi.useFakeTimers();
    const engine = engineEvents();
    const runs = new RunViewRuns(engine);
    runs.track('done', 'c', {});
    runs.track('live', 'c', { code: 'y' });
    engine.emit(finished('done'));
    vi.advanceTimersByTime(KEEP_FINISHED_MS - 1);
    expect(runs.find('c', { runId: 'done' })).toBeDefined();
    vi.advanceTimersByTime(1);
    expect(runs.find('c', { runId: 'done' })).toBeUndefined();
    expect(runs.find('c', { runId: 'live' })).toBeDefined();
    runs.dispose();
    expect(engine.listeners.size).toBe(0);
  });

  it(`remembers at most ${MAX_TRACKED_RUNS} runs, dropping finished ones first`, () => {
    const engine = engineEvents();
    const runs = new RunViewRuns(engine);
    runs.track('live-0', 'c', {});
    for (let i = 1; i < MAX_TRACKED_RUNS; i++) {
      runs.track(`run-${i}`, 'c', { i });
      engine.emit(finished(`run-${i}`));
    }
    expect(runs.size).toBe(MAX_TRACKED_RUNS);
    runs.track('new', 'c', {});
    expect(runs.size).toBe(MAX_TRACKED_RUNS);
    expect(runs.find('c', { runId: 'live-0' })).toBeDefined();
    expect(runs.find('c', { runId: 'run-1' })).toBeUndefined();
    expect(runs.find('c', { runId: 'new' })).toBeDefined();
    runs.dispose();
  });
});
