// Turns an execution result into the reference bridge's result shape [compat]: one text content plus a
// structured payload, compact by default or TOON-style when asked. Sandbar adds exitReason/durationMs.
import { refusedLines } from '../../shared/egress-audit.js';
import type { ExecutionResult } from '../../shared/execution.js';

/**
 * A result with images or links carries no structuredContent (clients would drop the images); it keeps the
 * structured payload under this `_meta` key instead, for `sandbar run` and other readers of the payload.
 */
export const STRUCTURED_META_KEY = 'sandbar/result';

export type ResultStatus = 'success' | 'error' | 'timeout' | 'validation_error';

export interface ResultPayload {
  status: ResultStatus;
  summary: string;
  exitCode?: number;
  servers?: string[];
  stdout?: string[];
  stderr?: string[];
  error?: string;
  timeoutSeconds?: number;
  exitReason?: string;
  durationMs?: number;
  /** [beyond] `egress refused: HOST:PORT (reason)`, one per refused connection (absent when none were). */
  egressRefused?: string[];
}

/** Lines of captured output. [fix] Blank lines are kept; only the final newline's empty tail goes. */
export function outputLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

export function payloadFromResult(result: ExecutionResult, servers: readonly string[] = []): ResultPayload {
  const stdout = outputLines(result.stdout);
  const stderr = outputLines(result.stderr);
  const base = {
    ...(servers.length ? { servers: [...servers] } : {}),
    ...(stdout.length ? { stdout } : {}),
    ...(stderr.length ? { stderr } : {}),
  };
  const refused = refusedLines(result.egress ?? [], result.egressDropped ?? 0);
  const extra = { exitReason: result.exitReason, durationMs: result.durationMs, ...(refused.length ? { egressRefused: refused } : {}) };
  if (result.exitReason === 'success') {
    const summary = result.stdout === '' && result.stderr === '' ? 'Success (no output)' : 'Success';
    return { status: 'success', summary, exitCode: 0, ...base, ...extra };
  }
  const error = result.message ?? result.exitReason;
  if (result.exitReason === 'timeout') {
    return {
      status: 'timeout',
      summary: `Timeout: execution exceeded ${result.timeoutSec}s`,
      ...base,
      error,
      timeoutSeconds: result.timeoutSec,
      ...extra,
    };
  }
  return { status: 'error', summary: `Sandbox error: ${error}`, ...base, error, ...extra };
}

/** The compact text: stdout lines, `stderr:` and its lines, a status line and error line as needed. */
export function compactText(p: ResultPayload): string {
  const parts: string[] = [];
  if (p.stdout?.length) parts.push(p.stdout.join('\n'));
  if (p.stderr?.length) parts.push(`stderr:\n${p.stderr.join('\n')}`);
  if (parts.length === 0) parts.push(p.summary);
  // [compat] a plain non-zero exit is explained by its traceback; [beyond] Sandbar's own stops (memory,
  // output limit, cancel, runtime failure, protocol abuse) and a crash (no traceback) always say why in words.
  const plainExit = p.exitReason === 'error' && /^Sandbox exited with code -?\d+$/.test(p.error ?? '');
  const ownStop = p.exitReason !== undefined && p.exitReason !== 'success' && !plainExit;
  if (p.error && (p.status !== 'error' || (ownStop && parts[0] !== p.summary))) parts.push(`error: ${p.error}`);
  if (p.status !== 'success') parts.unshift(`status: ${p.status}`);
  // [beyond] A run whose connections were refused says so, one line each, after everything else.
  if (p.egressRefused?.length) parts.push(p.egressRefused.join('\n'));
  // [fix] Not trimmed: the first line's leading spaces are the code's (a table header keeps its alignment).
  const text = parts.join('\n');
  return text.trim() ? text : p.status;
}

/** The compact structured content: the reference's trimmed subset, plus Sandbar's two fields. */
export function compactStructured(p: ResultPayload): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (p.status !== 'success') out.status = p.status;
  if (p.exitCode) out.exitCode = p.exitCode;
  if (p.stdout?.length) out.stdout = p.stdout;
  if (p.stderr?.length) out.stderr = p.stderr;
  if (p.servers?.length) out.servers = p.servers;
  if (p.timeoutSeconds !== undefined) out.timeoutSeconds = p.timeoutSeconds;
  if (p.error) out.error = p.error;
  if (p.status !== 'success' || !p.stdout?.length) out.summary = p.summary;
  if (p.exitReason) out.exitReason = p.exitReason;
  if (p.durationMs !== undefined) out.durationMs = p.durationMs;
  if (p.egressRefused?.length) out.egressRefused = p.egressRefused;
  return out;
}
