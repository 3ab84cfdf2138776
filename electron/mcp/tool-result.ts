// CallToolResult builders for run_python [compat]: one text content plus structured content, isError for
// anything but success; compact by default, a fenced TOON block of the full payload in `toon` mode. A run
// that made figures or files gets them added by artifact-content.ts.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { encode } from '@toon-format/toon';
import type { ExecutionResult } from '../../shared/execution.js';
import type { OutputMode } from '../../shared/settings.js';
import { withArtifacts } from './artifact-content.js';
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

/** A finished run's result: the reference's shape, plus its figures, displays and files when it made any. */
export function runToolResult(result: ExecutionResult, servers: readonly string[], mode: OutputMode): CallToolResult {
  const base = toolResult(payloadFromResult(result, servers), mode);
  return withArtifacts(base, { runId: result.id, artifacts: result.artifacts ?? [], refused: result.refusedArtifacts ?? [] });
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
