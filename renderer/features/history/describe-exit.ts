// How a run ended, in words: the detail's headline and the table's badges.
import type { HistoryDetail, HistoryStatus } from '../../../shared/history.js';
import { formatBytes } from '../../lib/format.js';

export type ExitFacts = Pick<HistoryDetail, 'status' | 'exitCode' | 'error'> & {
  timeoutSec?: number | null;
  limits?: { memory?: string; outputCapBytes?: number } | null;
};

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}

/** "success", "error (exit 1)", "timed out after 30s", "killed: memory limit 512m", … */
export function describeExit(run: ExitFacts): string {
  switch (run.status) {
    case 'success':
      return 'success';
    case 'error':
      return run.exitCode !== null ? `error (exit ${run.exitCode})` : 'error';
    case 'timeout':
      return run.timeoutSec ? `timed out after ${run.timeoutSec}s` : 'timed out';
    case 'memory':
      return run.limits?.memory ? `killed: memory limit ${run.limits.memory}` : 'killed: memory limit';
    case 'cancelled':
      return 'cancelled';
    case 'output_limit':
      return run.limits?.outputCapBytes ? `stopped: output over ${formatBytes(run.limits.outputCapBytes)}` : 'stopped: output limit';
    case 'runtime_error':
      return run.error ? `runtime error: ${firstLine(run.error)}` : 'runtime error';
    case 'protocol_abuse':
      return 'stopped: protocol abuse';
    case 'interrupted':
      return 'interrupted: Sandbar stopped during the run';
    case 'queued':
      return 'queued';
    case 'running':
      return 'running';
  }
}

/** The Badge component's tones (components/badge.tsx), restated so this stays a plain .ts module. */
export type Tone = 'ok' | 'warn' | 'fail' | 'muted' | 'accent';

const LABELS: Record<HistoryStatus, string> = {
  success: 'success',
  error: 'error',
  timeout: 'timed out',
  memory: 'out of memory',
  cancelled: 'cancelled',
  output_limit: 'output limit',
  runtime_error: 'runtime error',
  protocol_abuse: 'protocol abuse',
  interrupted: 'interrupted',
  queued: 'queued',
  running: 'running',
};

export function statusLabel(status: HistoryStatus): string {
  return LABELS[status];
}

const TONES: Record<HistoryStatus, Tone> = {
  success: 'ok',
  error: 'fail',
  timeout: 'warn',
  memory: 'fail',
  cancelled: 'muted',
  output_limit: 'warn',
  runtime_error: 'fail',
  protocol_abuse: 'fail',
  interrupted: 'warn',
  queued: 'muted',
  running: 'accent',
};

export function statusTone(status: HistoryStatus): Tone {
  return TONES[status];
}
