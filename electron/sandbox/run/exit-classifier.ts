// Turns how a run ended (or that it never started) into an exit reason and a sentence a person understands.
import type { ExecutionResult, ExecutionSummary, ExitReason, Stream } from '../../../shared/execution.js';
import { formatBytes, type Limits } from '../../../shared/limits.js';
import type { ProcessExit } from './attached-process.js';

/** Why the host stopped a run itself, if it did. */
export type HostStop = { reason: 'timeout' } | { reason: 'cancelled' } | { reason: 'output_limit'; stream: Stream };

export interface EndFacts {
  hostStop?: HostStop;
  /** The code from the agent's `exit` frame: the run ended on its own terms. */
  exitFrameCode?: number;
  processExit?: ProcessExit;
  timeoutSec: number;
  memory: string;
  outputCapBytes: number;
}

export interface Classified {
  exitReason: ExitReason;
  exitCode: number | null;
  message?: string;
}

/** SIGKILL as seen through the runtime client: 128 + 9. */
const KILLED = 137;

export function classifyExit(facts: EndFacts): Classified {
  const processCode = facts.processExit?.exitCode ?? null;
  if (facts.hostStop) {
    const code = facts.exitFrameCode ?? processCode;
    switch (facts.hostStop.reason) {
      case 'timeout':
        return { exitReason: 'timeout', exitCode: code, message: `Execution timed out after ${facts.timeoutSec}s` };
      case 'cancelled':
        return { exitReason: 'cancelled', exitCode: code, message: 'Execution cancelled' };
      case 'output_limit':
        return {
          exitReason: 'output_limit',
          exitCode: code,
          message: `Output limit reached: ${facts.hostStop.stream} exceeded ${formatBytes(facts.outputCapBytes)}, so the run was stopped`,
        };
    }
  }
  if (facts.exitFrameCode !== undefined) {
    const code = facts.exitFrameCode;
    return code === 0 ? { exitReason: 'success', exitCode: 0 } : { exitReason: 'error', exitCode: code, message: `Sandbox exited with code ${code}` };
  }
  const exit = facts.processExit;
  if (!exit || exit.spawnError) {
    return { exitReason: 'runtime_error', exitCode: null, message: `The container runtime failed: ${exit?.spawnError ?? 'no exit status'}` };
  }
  // Nobody on the host killed it and the agent never said goodbye: inside a memory-capped container a
  // SIGKILL comes from the OOM killer (runtimes here do not report OOMKilled reliably).
  if (processCode === KILLED || exit.signal === 'SIGKILL') {
    return { exitReason: 'memory', exitCode: KILLED, message: `killed: memory limit ${facts.memory} reached` };
  }
  if (processCode === 0) return { exitReason: 'success', exitCode: 0 };
  return { exitReason: 'error', exitCode: processCode, message: `Sandbox exited with code ${processCode}` };
}

/** The result of a run that never started (refused, cancelled while queued, or its sandbox failed to start). */
export function notRunResult(summary: ExecutionSummary, limits: Limits, exitReason: 'cancelled' | 'runtime_error', message: string): ExecutionResult {
  return {
    id: summary.id,
    exitReason,
    exitCode: null,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    message,
    timeoutSec: summary.timeoutSec,
    limits,
    queuedAt: summary.queuedAt,
    startedAt: null,
    finishedAt: Date.now(),
    durationMs: 0,
  };
}
