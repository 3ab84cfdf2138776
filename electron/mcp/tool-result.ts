// CallToolResult builders for run_python [compat]: one text content plus structured content, isError for
// anything but success; compact by default, a fenced TOON block of the full payload in `toon` mode. A run
// that made figures or files gets them added by artifact-content.ts.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { encode } from '@toon-format/toon';
import type { ExecutionResult } from '../../shared/execution.js';
import type { OutputMode } from '../../shared/settings.js';
import { MAX_RESPONSE_BYTES } from '../../shared/artifacts.js';
import { truncateUtf8 } from '../sandbox/run/output-capture.js';
import { responseBytes, withArtifacts } from './artifact-content.js';
import { compactStructured, compactText, payloadFromResult, type ResultPayload } from './result-format.js';

/** The full payload with empty fields dropped (0 and false kept), as the reference trims it. */
export function trimmedPayload(p: ResultPayload): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(p).filter(([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)),
  );
}

export function toolResult(payload: ResultPayload, mode: OutputMode): CallToolResult {
  const isError = payload.status !== 'success';
  if (mode === 'toon') {
    const full = trimmedPayload(payload);
    return { content: [{ type: 'text', text: `\`\`\`toon\n${encode(full)}\n\`\`\`` }], structuredContent: full, isError };
  }
  return { content: [{ type: 'text', text: compactText(payload) }], structuredContent: compactStructured(payload), isError };
}

/**
 * A finished run's result: the reference's shape, plus its figures, displays and files when it made any.
 * No response passes `maxResponseBytes`: images become links first; output still too long is cut (a
 * plain result under the bound, which is every result but one with about half a megabyte of output, is
 * exactly the reference's).
 */
export function runToolResult(
  result: ExecutionResult,
  servers: readonly string[],
  mode: OutputMode,
  maxResponseBytes: number = MAX_RESPONSE_BYTES,
): CallToolResult {
  const shape = (r: ExecutionResult) =>
    withArtifacts(
      toolResult(payloadFromResult(r, servers), mode),
      { runId: r.id, artifacts: r.artifacts ?? [], refused: r.refusedArtifacts ?? [] },
      { maxResponseBytes },
    );
  let shaped = shape(result);
  // Each output byte appears at least once in the response, so cutting the excess is enough; the loop is
  // a guard for markers and escaping, and ends once nothing is left to cut.
  for (let current = result; responseBytes(shaped) > maxResponseBytes; ) {
    const cut = cutOutput(current, responseBytes(shaped) - maxResponseBytes);
    if (cut === current) break;
    current = cut;
    shaped = shape(current);
  }
  return shaped;
}

export const OUTPUT_CUT_MARKER = '\n… (output cut here: a response may not pass 1,000,000 bytes)\n';

/** Drops `excess` bytes (and room for the marker) from the end of the longer stream; the same result if both are empty. */
export function cutOutput(result: ExecutionResult, excess: number): ExecutionResult {
  const stream = Buffer.byteLength(result.stdout) >= Buffer.byteLength(result.stderr) ? 'stdout' : 'stderr';
  const text = result[stream];
  const marked = text.endsWith(OUTPUT_CUT_MARKER);
  const body = marked ? text.slice(0, -OUTPUT_CUT_MARKER.length) : text;
  if (body === '') return result;
  const keep = Math.max(0, Buffer.byteLength(text) - excess - 2 * Buffer.byteLength(OUTPUT_CUT_MARKER));
  const kept = truncateUtf8(body, keep);
  if (marked && kept === body) return result;
  return { ...result, [stream]: `${kept}${OUTPUT_CUT_MARKER}`, [`${stream}Truncated`]: true };
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
