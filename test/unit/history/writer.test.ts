// Recording through the engine's event stream: one row per run, with the right fields for each way a
// run can end, its tool calls, the output cap, and a store that never throws into the stream.
import { CliBackend } from '../../../electron/sandbox/cli/cli-backend.js';
import { newOwner } from '../../../electron/sandbox/backend.js';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';
import { Engine } from '../../../electron/sandbox/engine.js';
import type { ContainerRuntime } from '../../../electron/sandbox/cli/container-runtime.js';
import { DEFAULT_ENGINE_CONFIG } from '../../../electron/sandbox/engine-config.js';
import type { HistoryStore } from '../../../electron/history/history-store.js';
import { HISTORY_STREAM_CAP_BYTES } from '../../../electron/history/history-writer.js';
import { assertSearchIndexMatches, memoryLogger, openStore, recordRun, runEvents, tempDir } from './helpers.js';

let dir: ReturnType<typeof tempDir>;
let store: HistoryStore;

beforeEach(async () => {
  dir = tempDir();
  store = await openStore(path.join(dir.dir, 'history.db'));
});
afterEach(() => {
  store.dispose();
  dir.cleanup();
});

const client = { name: 'claude-code', version: '2.1.0', transport: 'stdio' as const };

describe('one row per run, for every way a run ends', () => {
  const cases = [
    { exitReason: 'success', exitCode: 0, stdout: 'hello\n', message: undefined },
    { exitReason: 'error', exitCode: 1, stderr: 'Traceback (most recent call last):\nZeroDivisionError\n', message: 'Sandbox exited with code 1' },
    { exitReason: 'timeout', exitCode: 137, stdout: 'tick\n', message: 'Execution timed out after 5s' },
    { exitReason: 'memory', exitCode: 137, message: 'killed: memory limit 512m reached' },
    { exitReason: 'cancelled', exitCode: 143, message: 'Execution cancelled' },
    {
      exitReason: 'output_limit', exitCode: 137, stdout: `${'x'.repeat(1000)}\n[sandbar: stdout truncated at 1 MiB; the run was stopped]\n`,
      stdoutTruncated: true, message: 'Output limit reached: stdout exceeded 1 MiB, so the run was stopped',
    },
  ] as const;

  it.each(cases)('$exitReason', async (c) => {
    const queuedAt = Date.now() - 1000;
    const id = recordRun(store, { ...c, code: `# ${c.exitReason}\nprint(1)`, servers: ['fs', 'git'], client, queuedAt, timeoutSec: 5 });
    const page = store.list();
    expect(page.items).toHaveLength(1);
    const row = store.get(id)!;
    expect(row).toMatchObject({
      id, status: c.exitReason, exitReason: c.exitReason, exitCode: c.exitCode,
      client: { name: 'claude-code', version: '2.1.0' }, transport: 'stdio',
      code: `# ${c.exitReason}\nprint(1)`, servers: ['fs', 'git'], limits: DEFAULT_LIMITS, timeoutSec: 5,
      queuedAt, startedAt: queuedAt + 3, finishedAt: queuedAt + 123, durationMs: 120,
      stdout: 'stdout' in c ? c.stdout : '', stderr: 'stderr' in c ? c.stderr : '',
      stdoutTruncated: 'stdoutTruncated' in c, stderrTruncated: false,
      error: c.message ?? null, containerName: `sandbar-test-${id.slice(0, 8)}`, toolCalls: [],
    });
    expect(store.countByStatus()[c.exitReason]).toBe(1);
    await assertSearchIndexMatches(path.join(dir.dir, 'history.db'));
  });

  it('a run cancelled in the queue: never started, no exit code, zero duration', () => {
    const id = recordRun(store, { exitReason: 'cancelled', started: false, client: { name: 'cli', transport: 'cli' } });
    expect(store.get(id)).toMatchObject({
      status: 'cancelled', exitCode: null, startedAt: null, durationMs: 0, containerName: null,
      error: 'Execution cancelled before it started', client: { name: 'cli', version: null }, transport: 'cli',
    });
  });

  it('rows exist from the moment a run is queued, and follow it through start to finish', () => {
    const [queued, started, ...rest] = runEvents({ stdout: 'out' });
    store.record(queued!);
    const id = store.list().items[0]!.id;
    expect(store.get(id)).toMatchObject({ status: 'queued', startedAt: null, exitReason: null, finishedAt: null });
    store.record(started!);
    expect(store.get(id)).toMatchObject({ status: 'running', exitReason: null });
    expect(store.countByStatus()).toMatchObject({ running: 1, queued: 0 });
    for (const event of rest) store.record(event);
    expect(store.get(id)).toMatchObject({ status: 'success', stdout: 'out' });
    expect(store.list().items).toHaveLength(1);
  });

  it('indexes a run when it settles, not while it is in flight', () => {
    const [queued, started, finished] = runEvents({ code: 'print("kookaburra")' });
    store.record(queued!);
    store.record(started!);
    expect(store.list({ search: 'kookaburra' }).items).toEqual([]);
    store.record(finished!);
    expect(store.list({ search: 'kookaburra' }).items.map((i) => i.status)).toEqual(['success']);
  });

  it('records tool calls with server, tool, timing, error and bytes, and counts them on the list', () => {
    const t = Date.now();
    const id = recordRun(store, {
      servers: ['fs'],
      toolCalls: [
        { server: 'fs', tool: 'read_file', startedAt: t, durationMs: 12, bytesIn: 40, bytesOut: 2048, isError: false },
        { server: 'fs', tool: 'write_file', startedAt: t + 20, durationMs: 3, bytesIn: 99, bytesOut: 0, isError: true, error: 'server crashed' },
      ],
    });
    expect(store.get(id)!.toolCalls).toEqual([
      { server: 'fs', tool: 'read_file', startedAt: t, durationMs: 12, isError: false, bytesIn: 40, bytesOut: 2048, error: null },
      { server: 'fs', tool: 'write_file', startedAt: t + 20, durationMs: 3, isError: true, bytesIn: 99, bytesOut: 0, error: 'server crashed' },
    ]);
    expect(store.list().items[0]!.toolCallCount).toBe(2);
  });

  it('skips a tool call whose run it never saw (it could never be cleaned up)', () => {
    const t = Date.now();
    store.record({ type: 'toolCall', call: { executionId: 'unknown-run', server: 'fs', tool: 'x', startedAt: t, durationMs: 1, bytesIn: 1, bytesOut: 1, isError: false } });
    expect(store.health().writeErrors).toBe(0);
    const id = recordRun(store);
    expect(store.get(id)!.toolCalls).toEqual([]);
  });

  it(`keeps at most ${HISTORY_STREAM_CAP_BYTES / 1024} KiB of each stream, on a character boundary, and flags the cut`, () => {
    const big = `${'é'.repeat(HISTORY_STREAM_CAP_BYTES)}`; // 2 bytes each: twice the cap
    const id = recordRun(store, { stdout: big, stderr: 'short' });
    const row = store.get(id)!;
    expect(Buffer.byteLength(row.stdout)).toBe(HISTORY_STREAM_CAP_BYTES);
    expect(row.stdout).toBe('é'.repeat(HISTORY_STREAM_CAP_BYTES / 2));
    expect(row).toMatchObject({ stdoutTruncated: true, stderrTruncated: false, stderr: 'short' });
  });

  it('a finish without a recorded queue (subscribed late) still makes one row; a repeated finish changes nothing', async () => {
    const events = runEvents({ stdout: 'late' });
    const finished = events[events.length - 1]!;
    store.record(finished);
    store.record(finished);
    expect(store.list().items).toHaveLength(1);
    expect(store.list().items[0]).toMatchObject({ status: 'success', client: { name: 'unknown' } });
    expect(store.totalBytes()).toBe(256 + 4);
    await assertSearchIndexMatches(path.join(dir.dir, 'history.db'));
  });

  it('takes the limits snapshot at queue time from the engine when given', async () => {
    const limits = { ...DEFAULT_LIMITS, memory: '1g' };
    const other = await openStore(path.join(dir.dir, 'other.db'), { currentLimits: () => limits });
    const [queued] = runEvents();
    other.record(queued!);
    expect(other.get(other.list().items[0]!.id)!.limits).toEqual(limits);
    other.dispose();
  });
});

describe('never throws into the event stream', () => {
  it('a failed write is logged and counted; the next events are still recorded', () => {
    const logger = memoryLogger();
    const events = runEvents();
    store.dispose();
    // Not started: recording is a no-op.
    expect(() => events.forEach((e) => store.record(e))).not.toThrow();
    return openStore(path.join(dir.dir, 'history.db'), { logger }).then((s) => {
      store = s;
      const bad = runEvents({ code: 'x' });
      (bad[0] as { execution: { code: unknown } }).execution.code = null; // NOT NULL violation
      expect(() => bad.forEach((e) => store.record(e))).not.toThrow();
      expect(store.health().writeErrors).toBe(1);
      expect(logger.lines.some((l) => l.startsWith('warn history: Recording a queued event failed'))).toBe(true);
      recordRun(store, { stdout: 'fine' });
      // The finish of the bad run still made a row (upsert), and the good run is complete.
      expect(store.list().items.map((i) => i.status)).toEqual(['success', 'success']);
    });
  });

  it('through a real Engine: runs cancelled in the queue and runs whose runtime fails are each one row', async () => {
    const runtime = {
      current: () => null,
      resolve: () => Promise.reject(new AppError('runtime_not_found', 'No container runtime was found')),
    } as unknown as ContainerRuntime;
    const engine = new Engine(new CliBackend(runtime, newOwner()), { ...DEFAULT_ENGINE_CONFIG, concurrency: 0, poolSize: 0 });
    engine.subscribe((e) => store.record(e));
    await engine.start();
    const queued = engine.submit({ code: 'print("queued")', client: { name: 'panel', transport: 'panel' } });
    engine.cancel(queued.id);
    await queued.result;
    engine.updateConfig({ concurrency: 1 });
    const failed = await engine.submit({ code: 'print("fails")', servers: ['fs'], client: { name: 'cli', transport: 'cli' } }).result;
    await engine.dispose(10);
    expect(failed.exitReason).toBe('runtime_error');
    expect(store.get(queued.id)).toMatchObject({ status: 'cancelled', code: 'print("queued")', client: { name: 'panel' }, startedAt: null });
    expect(store.get(failed.id)).toMatchObject({ status: 'runtime_error', code: 'print("fails")', servers: ['fs'], error: failed.message });
    expect(store.list().items).toHaveLength(2);
  });
});
