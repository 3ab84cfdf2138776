// Small builders for the shapes the stores hold.
import type { FinishedExecution, LiveSnapshot, RunningExecution } from '../../../../shared/contract.js';
import type { ExecutionSummary } from '../../../../shared/execution.js';
import { DEFAULT_LIMITS } from '../../../../shared/limits.js';

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
