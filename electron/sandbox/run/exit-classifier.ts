// Turns how a run ended (or that it never started) into an exit reason and a sentence a person understands.
import type { ExecutionResult, ExecutionSummary, ExitReason, Stream } from '../../../shared/execution.js';
import { formatBytes, type Limits } from '../../../shared/limits.js';
import type { ProcessExit } from './attached-process.js';

/** Why the host stopped a run itself, if it did. `what`: the bound the sandbox went past, in words. */
export type HostStop =
  | { reason: 'timeout' }
  | { reason: 'cancelled' }
  | { reason: 'output_limit'; stream: Stream }
  | { reason: 'protocol_abuse'; what: string };

export interface EndFacts {
  hostStop?: HostStop;
  /** The code from the agent's `exit` frame: the run ended on its own terms. */
  exitFrameCode?: number;
  /** From the relay: how the code's process ended without saying goodbye (`SIGSEGV`, `exit`, …). */
  abrupt?: string;
  /** From the relay: the stream the code went on printing far past the cap, so the sandbox stopped it. */
  stoppedStream?: Stream;
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

/** Past this many times outputCapBytes on one stream, the sandbox stops the run (the cap is what is kept). */
export const OUTPUT_STOP_FACTOR = 16;

const SIGNAL_WORDS: Record<string, string> = {
  SIGSEGV: 'crashed with a segmentation fault',
  SIGABRT: 'aborted (abort() was called, often by a C library on an internal error)',
  SIGBUS: 'crashed with a bus error',
  SIGFPE: 'crashed with an arithmetic error',
  SIGILL: 'crashed on an illegal instruction',
  SIGSYS: 'was stopped for a forbidden system call',
};

/** The code's process ended without its agent's goodbye: a crash, a signal, or os._exit(). */
function abruptEnd(code: number, how: string, memory: string): Classified {
  // Nobody on the host killed it: inside a memory-capped container a SIGKILL comes from the OOM killer.
  if (how === 'SIGKILL') return { exitReason: 'memory', exitCode: KILLED, message: `killed: memory limit ${memory} reached` };
  if (how === 'exit') {
    if (code === 0) return { exitReason: 'success', exitCode: 0 };
    return { exitReason: 'error', exitCode: code, message: `Sandbox exited with code ${code}: the process ended at once (os._exit() or native code), before Python finished the run; what it printed before is kept` };
  }
  const words = SIGNAL_WORDS[how] ?? `was killed by ${how}`;
  return { exitReason: 'error', exitCode: code, message: `Sandbox exited with code ${code}: the Python process ${words} (${how}); what it printed before is kept` };
}

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
      case 'protocol_abuse':
        return {
          exitReason: 'protocol_abuse',
          exitCode: code,
          message: `Protocol abuse: ${facts.hostStop.what}. The sandbox's agent never does that, so the code went around it; the run was stopped`,
        };
    }
  }
  if (facts.stoppedStream) {
    const cap = formatBytes(facts.outputCapBytes);
    return {
      exitReason: 'output_limit',
      exitCode: facts.exitFrameCode ?? KILLED,
      message: `Output limit reached: ${facts.stoppedStream} went on past ${formatBytes(OUTPUT_STOP_FACTOR * facts.outputCapBytes)} (${OUTPUT_STOP_FACTOR} × the ${cap} cap), so the run was stopped; its first ${cap} is kept`,
    };
  }
  if (facts.exitFrameCode !== undefined) {
    const code = facts.exitFrameCode;
    if (facts.abrupt) return abruptEnd(code, facts.abrupt, facts.memory);
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
