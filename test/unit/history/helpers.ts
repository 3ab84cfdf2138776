// Shared by the history tests: temporary homes, a recording logger, and engine events built exactly the
// way electron/sandbox/engine.ts builds them (queued → started → output/toolCall → finished).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Artifact, RefusedArtifact } from '../../../shared/artifacts.js';
import type { ClientInfo, EngineEvent, ExecutionResult, ExecutionSummary, ExitReason, ToolCallRecord } from '../../../shared/execution.js';
import { DEFAULT_LIMITS, type Limits } from '../../../shared/limits.js';
import type { SessionRef } from '../../../shared/sessions.js';
import type { Logger } from '../../../electron/logger.js';
import { HistoryStore, type HistoryStoreOptions } from '../../../electron/history/history-store.js';
import { openDriver } from '../../../electron/history/open-driver.js';
import type { DriverKind, SqlDriver } from '../../../electron/history/sqlite-driver.js';

/**
 * The adapter the store tests run on: better-sqlite3 by default; SANDBAR_HISTORY_TEST_DRIVER=node:sqlite runs
 * the whole suite on node:sqlite where Node has it (22.5+), as the Electron app uses it.
 */
export const TEST_DRIVER: DriverKind = process.env.SANDBAR_HISTORY_TEST_DRIVER === 'node:sqlite' ? 'node:sqlite' : 'better-sqlite3';

/** A plain connection beside the store's, to look at (or prepare) the database directly. */
export function rawDriver(file: string): Promise<SqlDriver> {
  return openDriver(file, TEST_DRIVER);
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-history-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  return { lines, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

export async function openStore(file: string, options: Partial<HistoryStoreOptions> = {}): Promise<HistoryStore> {
  const store = new HistoryStore({ file, logger: memoryLogger(), driver: TEST_DRIVER, ...options });
  await store.start();
  // Retention runs in the background from start(); the tests look at the store once it is done.
  await store.pruning;
  return store;
}

export interface RunSpec {
  id?: string;
  code?: string;
  servers?: string[];
  client?: ClientInfo;
  exitReason?: ExitReason;
  exitCode?: number | null;
  stdout?: string;
  stderr?: string;
  stdoutTruncated?: boolean;
  stderrTruncated?: boolean;
  message?: string;
  queuedAt?: number;
  /** Milliseconds between start and finish. */
  runMs?: number;
  /** False for a run that never started (cancelled in the queue, runtime error): the engine's notRun. */
  started?: boolean;
  toolCalls?: Omit<ToolCallRecord, 'executionId'>[];
  /** A session's call: its id and number. */
  session?: SessionRef;
  limits?: Limits;
  timeoutSec?: number;
  artifacts?: Artifact[];
  refusedArtifacts?: RefusedArtifact[];
}

export function summaryOf(spec: RunSpec & { id: string }): ExecutionSummary {
  return {
    id: spec.id,
    code: spec.code ?? 'print(1)',
    servers: spec.servers ?? [],
    ...(spec.client ? { client: spec.client } : {}),
    ...(spec.session ? { session: spec.session } : {}),
    timeoutSec: spec.timeoutSec ?? 30,
    queuedAt: spec.queuedAt ?? Date.now(),
  };
}

/** The events of one run, in the engine's order, with the engine's field values. */
export function runEvents(spec: RunSpec = {}): EngineEvent[] {
  const id = spec.id ?? randomUUID();
  const summary = summaryOf({ ...spec, id });
  const limits = spec.limits ?? DEFAULT_LIMITS;
  const events: EngineEvent[] = [{ type: 'queued', execution: summary, position: 0 }];
  const exitReason = spec.exitReason ?? 'success';
  if (spec.started === false) {
    events.push({
      type: 'finished',
      result: {
        id, exitReason, exitCode: null, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false,
        message: spec.message ?? 'Execution cancelled before it started', timeoutSec: summary.timeoutSec, limits,
        queuedAt: summary.queuedAt, startedAt: null, finishedAt: summary.queuedAt + 5, durationMs: 0,
      },
    });
    return events;
  }
  const startedAt = summary.queuedAt + 3;
  const finishedAt = startedAt + (spec.runMs ?? 120);
  const containerName = `sandbar-test-${id.slice(0, 8)}`;
  events.push({ type: 'started', id, at: startedAt, containerName, warm: true });
  if (spec.stdout) events.push({ type: 'output', id, stream: 'stdout', data: spec.stdout });
  if (spec.stderr) events.push({ type: 'output', id, stream: 'stderr', data: spec.stderr });
  for (const call of spec.toolCalls ?? []) events.push({ type: 'toolCall', call: { ...call, executionId: id } });
  const result: ExecutionResult = {
    id,
    exitReason,
    exitCode: spec.exitCode !== undefined ? spec.exitCode : exitReason === 'success' ? 0 : 1,
    stdout: spec.stdout ?? '',
    stderr: spec.stderr ?? '',
    stdoutTruncated: spec.stdoutTruncated ?? false,
    stderrTruncated: spec.stderrTruncated ?? false,
    ...(spec.message !== undefined ? { message: spec.message } : {}),
    timeoutSec: summary.timeoutSec,
    limits,
    queuedAt: summary.queuedAt,
    startedAt,
    finishedAt,
    durationMs: finishedAt - startedAt,
    containerName,
    ...(spec.artifacts ? { artifacts: spec.artifacts } : {}),
    ...(spec.refusedArtifacts ? { refusedArtifacts: spec.refusedArtifacts } : {}),
  };
  events.push({ type: 'finished', result });
  return events;
}

export function recordRun(store: HistoryStore, spec: RunSpec = {}): string {
  const events = runEvents(spec);
  for (const event of events) store.record(event);
  // Written now, not on the next turn (write-batch.ts): many tests read the file through a second connection.
  store.flush();
  return (events[0] as Extract<EngineEvent, { type: 'queued' }>).execution.id;
}

/**
 * Throws unless the search index holds exactly the settled runs' text: FTS5's integrity check against its
 * content table (rank 1), so call it when no run is in flight (those are not indexed yet).
 */
export async function assertSearchIndexMatches(file: string): Promise<void> {
  const db = await rawDriver(file);
  try {
    db.exec("INSERT INTO executions_fts (executions_fts, rank) VALUES ('integrity-check', 1)");
  } finally {
    db.close();
  }
}
