// Small builders for the shapes the stores hold.
import type { FinishedExecution, LiveSnapshot, RunningExecution } from '../../../../shared/contract.js';
import type { ExecutionSummary } from '../../../../shared/execution.js';
import { DEFAULT_LIMITS } from '../../../../shared/limits.js';
import type { SessionInfo } from '../../../../shared/sessions.js';

export function summary(id: string, extra: Partial<ExecutionSummary> = {}): ExecutionSummary {
  return { id, code: `print(${JSON.stringify(id)})`, servers: [], timeoutSec: 30, queuedAt: 1_000, ...extra };
}

export function running(id: string, extra: Partial<RunningExecution> = {}): RunningExecution {
  return { ...summary(id), startedAt: 2_000, memoryBytes: null, ...extra };
}

export function finished(id: string, extra: Partial<FinishedExecution> = {}): FinishedExecution {
  return {
    id,
    exitReason: 'success',
    exitCode: 0,
    stdoutTruncated: false,
    stderrTruncated: false,
    timeoutSec: 30,
    limits: DEFAULT_LIMITS,
    queuedAt: 1_000,
    startedAt: 2_000,
    finishedAt: 3_000,
    durationMs: 1_000,
    code: 'print(1)',
    servers: [],
    ...extra,
  };
}

export function snapshot(extra: Partial<LiveSnapshot> = {}): LiveSnapshot {
  return { running: [], queued: [], recent: [], pool: { size: 2, ready: 2, starting: 0, lastError: null, refilling: false }, paused: false, memoryLimitBytes: 512 * 1024 ** 2, ...extra };
}

/** A live session, paused, opened at 1,000 with its idle clock at 601,000; `id` is padded to 32 hex digits. */
export function session(id: string, extra: Partial<SessionInfo> = {}): SessionInfo {
  return {
    id: id.padEnd(32, '0'),
    client: { name: 'e2e-agent', version: '1.0.0' },
    calls: 1,
    openedAt: 1_000,
    lastCallAt: 1_000,
    idleExpiresAt: 601_000,
    maxExpiresAt: 3_601_000,
    busy: false,
    memoryBytes: null,
    containerName: `sandbar-${id}`,
    checkpoints: [1],
    ...extra,
  };
}
