// CallToolResult builders for run_python [compat]: one text content plus structured content, isError for
// anything but success; compact by default, a fenced TOON block of the full payload in `toon` mode. A run
// that made figures or files gets them added by artifact-content.ts.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { encode } from '@toon-format/toon';
import type { ExecutionResult } from '../../shared/execution.js';
import type { OutputMode } from '../../shared/settings.js';
import { MAX_RESPONSE_BYTES } from '../../shared/artifacts.js';
import { formatBytes } from '../../shared/limits.js';
import { printedWords, truncateUtf8, withoutCutMarker } from '../sandbox/run/output-capture.js';
import { responseBytes, withArtifacts } from './artifact-content.js';
import { compactStructured, compactText, payloadFromResult, type ResultPayload } from './result-format.js';

/** The full payload with empty fields dropped (0 and false kept), as the reference trims it. */
export function trimmedPayload(p: ResultPayload): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(p).filter(([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)),
  );
}

/**
 * `structuredOutput: false` leaves the output out of the structured content (which says `outputInText: true`
 * instead): for a result that would pass the response bound with the output in it twice.
 */
export function toolResult(payload: ResultPayload, mode: OutputMode, options: { structuredOutput?: boolean } = {}): CallToolResult {
  const isError = payload.status !== 'success';
  const whole = options.structuredOutput !== false;
  const structured = whole ? payload : { ...payload, stdout: undefined, stderr: undefined };
  const note = whole || !(payload.stdout?.length || payload.stderr?.length) ? {} : { outputInText: true };
  if (mode === 'toon') {
    const full = trimmedPayload(payload);
    return { content: [{ type: 'text', text: `\`\`\`toon\n${encode(full)}\n\`\`\`` }], structuredContent: { ...trimmedPayload(structured), ...note }, isError };
  }
  return { content: [{ type: 'text', text: compactText(payload) }], structuredContent: { ...compactStructured(structured), ...note }, isError };
}

/**
 * A finished run's result: the reference's shape, plus its figures, displays and files when it made any.
 * No response passes `maxResponseBytes`. What a model reads is the text, so that is kept whole longest:
 * images become links first, then the structured copy of the output goes (the text still has it), and only
 * then is the text's output cut, keeping its head in order, with a line saying where, why and how much
 * the code printed. A result under the bound is exactly the reference's.
 */
export function runToolResult(
  result: ExecutionResult,
  servers: readonly string[],
  mode: OutputMode,
  maxResponseBytes: number = MAX_RESPONSE_BYTES,
): CallToolResult {
  const shape = (r: ExecutionResult, structuredOutput: boolean) =>
    withArtifacts(
      toolResult(payloadFromResult(r, servers), mode, { structuredOutput }),
      { runId: r.id, artifacts: r.artifacts ?? [], refused: r.refusedArtifacts ?? [] },
      { maxResponseBytes },
    );
  let shaped = shape(result, true);
  if (responseBytes(shaped) <= maxResponseBytes) return shaped;
  shaped = shape(result, false);
  // Each output byte appears once in the text now, so cutting the excess is enough; the loop is a guard
  // for the marker and escaping, and ends once nothing is left to cut.
  for (let current = result; responseBytes(shaped) > maxResponseBytes; ) {
    const cut = cutOutput(current, responseBytes(shaped) - maxResponseBytes, maxResponseBytes);
    if (cut === current) break;
    current = cut;
    shaped = shape(current, false);
  }
  return shaped;
}

/** Room kept for the line that says where the output was cut (it is a few hundred bytes). */
const CUT_NOTE_ROOM = 600;

/** Drops `excess` bytes (and room for the note) from the end of the longer stream; the same result if nothing is left to cut. */
export function cutOutput(result: ExecutionResult, excess: number, maxResponseBytes: number = MAX_RESPONSE_BYTES): ExecutionResult {
  const stream = Buffer.byteLength(result.stdout) >= Buffer.byteLength(result.stderr) ? 'stdout' : 'stderr';
  const text = result[stream];
  const body = withoutCutMarker(text);
  if (body === '') return result;
  const kept = truncateUtf8(body, Math.max(0, Buffer.byteLength(text) - excess - CUT_NOTE_ROOM));
  // What the code printed, carried from one cut to the next (the first cut knows it from the whole body).
  const printed = result[`${stream}Printed`] ?? Buffer.byteLength(body);
  const note = cutNote(stream, Buffer.byteLength(kept), printed, result.limits?.outputCapBytes, maxResponseBytes);
  const cutText = `${kept}${kept === '' || kept.endsWith('\n') ? '' : '\n'}${note}\n`;
  if (cutText === text) return result;
  return { ...result, [stream]: cutText, [`${stream}Truncated`]: true, [`${stream}Printed`]: printed };
}

/** Where the response cut a stream, why, and how much the code printed (and what the run's history keeps). */
export function cutNote(stream: 'stdout' | 'stderr', shown: number, printed: number, capBytes: number | undefined, maxResponseBytes: number): string {
  // More printed than the cap means the sandbox cut it there: the history has the cap's worth, not all.
  const history = capBytes !== undefined && printed > capBytes ? `the run's history keeps its first ${formatBytes(capBytes)} (outputCapBytes)` : "the run's history keeps all of it";
  return `[sandbar: ${stream} cut here after ${printedWords(shown)}: a result may not pass ${maxResponseBytes.toLocaleString('en-US')} bytes. The code printed ${printedWords(printed)}; ${history}]`;
}

/** Schema violations: text only, no structured content (the SDK layer's shape in the reference). */
export function inputErrorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Refused before running: status validation_error, or error for problems such as an unknown server. */
export function refusalPayload(status: 'validation_error' | 'error', message: string, servers: readonly string[] = []): ResultPayload {
  const summary = status === 'error' ? `Sandbox error: ${message}` : message;
  return { status, summary, ...(servers.length ? { servers: [...servers] } : {}), error: message };
}
