// How a finished run ended, in words a person reads at a glance ("killed: memory limit 512m").
import type { ExitReason } from '../../../shared/execution.js';
import type { Tone } from '../../components/tone.js';

export interface ExitFacts {
  exitReason: ExitReason;
  exitCode: number | null;
  timeoutSec: number;
  limits: { memory: string };
  message?: string | undefined;
}

export function describeExit(run: ExitFacts): string {
  switch (run.exitReason) {
    case 'success':
      return 'success';
    case 'error':
      return run.exitCode === null ? 'error' : `error (exit ${run.exitCode})`;
    case 'timeout':
      return `timed out after ${run.timeoutSec}s`;
    case 'memory':
      return `killed: memory limit ${run.limits.memory}`;
    case 'cancelled':
      return 'cancelled';
    case 'output_limit':
      return 'output limit reached';
    case 'runtime_error':
      return run.message ? `runtime error: ${run.message}` : 'runtime error';
    case 'protocol_abuse':
      return 'stopped: protocol abuse';
  }
}

export function exitTone(reason: ExitReason): Tone {
  switch (reason) {
    case 'success':
      return 'ok';
    case 'cancelled':
    case 'output_limit':
      return 'warn';
    default:
      return 'fail';
  }
}
