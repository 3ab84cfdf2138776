// `sandbar run` when a Sandbar already serves this home: the code goes to that instance's run_python over
// MCP (with the client token), so it uses the instance's warm pool and lands in its history. Output comes
// back with the result rather than streamed.
import type { ExitReason } from '../../shared/execution.js';
import { packageInfo } from '../package-info.js';
import type { BridgeTarget } from '../instance-file.js';
import { STRUCTURED_META_KEY } from '../mcp/result-format.js';
import { callToolOnce } from './mcp-call-once.js';
import { displayLine } from '../../shared/display-text.js';

/** Sandbar's own line beside the output (the result's text may quote the code's): sanitised. */
const header = (text: string) => `sandbar: ${displayLine(text, 2000)}\n`;

export interface BridgedRun {
  exitReason: ExitReason;
  /** What `--json` prints: the tool's structured result. */
  structured: Record<string, unknown>;
}

const lines = (value: unknown): string => (Array.isArray(value) && value.length > 0 ? `${value.join('\n')}\n` : '');

/** The run's outcome, or null when the instance was not there to take it (nothing ran). */
export async function runBridged(target: BridgeTarget, run: { code: string; servers: string[]; packages?: string[]; timeout?: number; json: boolean }): Promise<BridgedRun | null> {
  const args = { code: run.code, ...(run.servers.length ? { servers: run.servers } : {}), ...(run.packages?.length ? { packages: run.packages } : {}), ...(run.timeout ? { timeout: run.timeout } : {}) };
  const result = await callToolOnce(target.url, target.token, { name: 'run_python', arguments: args }, { name: 'sandbar-cli', version: packageInfo().version });
  if (!result) return null;
  // A result with figures or files carries its payload in _meta instead (see STRUCTURED_META_KEY).
  const structured = (result.structuredContent ?? result._meta?.[STRUCTURED_META_KEY] ?? {}) as Record<string, unknown>;
  const exitReason = (structured.exitReason as ExitReason | undefined) ?? (result.isError ? 'error' : 'success');
  if (!run.json) {
    if (structured.outputInText === true) {
      // Output too long to come twice: only the result's text has it (with its `stderr:` part).
      process.stdout.write(`${result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).slice(0, 1).join('')}\n`);
    } else {
      process.stdout.write(lines(structured.stdout));
      process.stderr.write(lines(structured.stderr));
    }
    if (exitReason !== 'success' && exitReason !== 'error' && typeof structured.error === 'string') process.stderr.write(header(structured.error));
    // A refusal (unknown server, busy) has no exit reason: its text is the message.
    if (structured.exitReason === undefined && result.isError) {
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      process.stderr.write(header(text));
    }
  }
  return { exitReason, structured };
}
