// Handles one `run_python` call: arguments → runs.start → progress → result shape [compat]. Everything
// about the run itself (refusals, sessions, servers, packages, approvals) is the run service's.
import { ElicitResultSchema, type CallToolResult, type ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { PendingApproval } from '../../shared/approvals.js';
import type { ClientInfo } from '../../shared/execution.js';
import { errorMessage } from '../../shared/errors.js';
import type { OutputMode, Settings } from '../../shared/settings.js';
import type { Logger } from '../logger.js';
import type { ApprovalAsk, RunEvents, RunResult, RunTicket } from '../runs/ports.js';
import { RunRefused } from '../runs/run-refusal.js';
import type { RunService } from '../runs/run-service.js';
import type { RunOwners } from './run-owners.js';
import { approvalElicitation, decisionFromElicitation } from './approval-question.js';
import { checkRunPythonArgs } from './run-python-args.js';
import { withSession } from './session-result.js';
import { inputErrorResult, refusalPayload, runToolResult, toolResult } from './tool-result.js';

/** What the handler uses of a request's context: the 2026-07-28 server (modern-server.ts) supplies the same. */
export type ToolCallExtra = Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, 'signal' | '_meta' | 'sendNotification' | 'sendRequest' | 'authInfo'>;

/**
 * Who is calling, beyond the client's self-reported name: `credential` is the same for both revisions
 * (`client-token:<fingerprint>` over HTTP, `stdio:<connection>` over stdio), never a protocol session.
 * `hold` (2026-07-28 with elicitation) takes over once the run has started: the run may outlive this
 * request, which can end early with a question (held-runs.ts).
 */
export interface CallerOptions<Held = never> {
  canElicit?: boolean;
  credential?: string;
  hold?: RunHold<Held>;
  /** The run was submitted (the run view's tools look it up by its caller and arguments). */
  onSubmitted?: (runId: string) => void;
}

export interface RunHold<Held> {
  /** Cancels the run instead of the request's signal. */
  signal: AbortSignal;
  /** Where the held run's questions go (to the client with the next answer to a call). */
  ask: ApprovalAsk;
  /** `shape` turns the run's result into the call's, whichever request delivers it. */
  attach(ticket: RunTicket, extra: ToolCallExtra, shape: (result: RunResult) => CallToolResult): Promise<CallToolResult | Held>;
}

export interface RunPythonDeps {
  runs: Pick<RunService, 'start' | 'pendingApproval' | 'events'>;
  /** Who made each run: its artifacts are served to that caller only (run-owners.ts). */
  owners?: RunOwners;
  /** Read on every call: limit and output-mode changes apply without a restart. */
  settings: () => Settings;
  log: Logger;
}

const PROGRESS_INTERVAL_MS = 1000;

/** A finished run as the call's result: the reference's shape, and its session's line and info. */
export function shapeRun(result: RunResult, servers: readonly string[], mode: OutputMode): CallToolResult {
  const shaped = runToolResult(result.execution, servers, mode);
  return result.session ? withSession(shaped, result.session) : shaped;
}

export async function handleRunPython<Held = never>(
  args: Record<string, unknown> | undefined,
  extra: ToolCallExtra,
  client: ClientInfo,
  deps: RunPythonDeps,
  caller: CallerOptions<Held> = {},
): Promise<CallToolResult | Held> {
  const settings = deps.settings();
  const mode = settings.outputMode;
  const check = checkRunPythonArgs(args, { maxTimeoutSec: settings.limits.maxTimeoutSec, maxCodeBytes: settings.maxCodeBytes });
  if (!check.ok) {
    return check.kind === 'schema' ? inputErrorResult(check.message) : toolResult(refusalPayload('validation_error', check.message), mode);
  }
  const { request } = check;
  // As the caller named them (the result echoes them so); the run service loads each once.
  const servers = [...(request.servers ?? [])];
  const next = progressValues();
  // Installing packages can take a while the first time: say so, so the client knows the call is alive.
  const token = extra._meta?.progressToken;
  if (request.packages?.length && token !== undefined) {
    const message = `preparing packages: ${request.packages.join(', ')}`;
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: next(0), message } }).catch(() => {});
  }
  const ask = caller.hold?.ask ?? (caller.canElicit ? elicitationChannel(extra) : undefined);
  try {
    const ticket = await deps.runs.start(request, { client, ...(caller.credential ? { credential: caller.credential } : {}) }, { signal: caller.hold?.signal ?? extra.signal, ...(ask ? { ask } : {}) });
    deps.owners?.record(ticket.id, caller.credential ?? 'stdio:unknown');
    caller.onSubmitted?.(ticket.id);
    const shape = (result: RunResult) => shapeRun(result, servers, mode);
    if (caller.hold) return await caller.hold.attach(ticket, extra, shape);
    const stopProgress = reportProgress(deps.runs.events, ticket.id, extra, deps.log, next, () => deps.runs.pendingApproval(ticket.id));
    return shape(await ticket.result.finally(stopProgress));
  } catch (err) {
    if (err instanceof RunRefused) return toolResult(refusalPayload(err.kind === 'validation' ? 'validation_error' : 'error', err.message, servers), mode);
    deps.log.error(`run_python failed unexpectedly: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return toolResult({ status: 'error', summary: 'Unexpected failure', error: errorMessage(err) }, mode);
  }
}

/**
 * Progress notifications while the run is queued or going, if the client asked. The spec requires the
 * value to increase with every notification of a request; `progressValues` keeps it so whatever the clock
 * says (queued and started at the same instant, a clock step backwards).
 */
export function reportProgress(
  engine: RunEvents,
  id: string,
  extra: ToolCallExtra,
  log: Logger,
  next: (value: number) => number,
  waiting: () => PendingApproval | undefined = () => undefined,
): () => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => {};
  const send = (message: string, progress: number, total: number) => {
    extra
      .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: next(progress), total, message } })
      .catch((err: unknown) => log.debug(`progress notification not sent: ${errorMessage(err)}`));
  };
  // `started` is emitted after an await inside the engine, so subscribing right after submit misses nothing.
  const snapshot = engine.snapshot();
  const queuedAt = snapshot.queued.findIndex((q) => q.id === id);
  const summary = snapshot.queued[queuedAt] ?? snapshot.running.find((r) => r.id === id);
  const timeoutSec = summary?.timeoutSec ?? 0;
  if (queuedAt >= 0) send(`queued (${queuedAt + snapshot.running.length} ahead)`, 0, timeoutSec);
  // A run already going (a 2026-07-28 retry joining it) reports from its start at once.
  let startedAt: number | null = snapshot.running.find((r) => r.id === id)?.startedAt ?? null;
  const off = engine.subscribe((e) => {
    if (e.type === 'started' && e.id === id) {
      startedAt = e.at;
      send(`running, 0s of ${timeoutSec}s`, 0, timeoutSec);
    }
  });
  const timer = setInterval(() => {
    if (startedAt === null) return;
    const elapsed = (Date.now() - startedAt) / 1000;
    // While a call waits for a person the run's clock stands still; the notifications keep the request alive.
    const question = waiting();
    if (question) send(`waiting for approval of ${question.server}/${question.tool}`, elapsed, timeoutSec);
    else send(`running, ${Math.floor(elapsed)}s of ${timeoutSec}s`, elapsed, timeoutSec);
  }, PROGRESS_INTERVAL_MS);
  return () => {
    clearInterval(timer);
    off();
  };
}

/** A filter that makes a series strictly increasing: a value not above the last becomes the last + 0.001. */
export function progressValues(): (value: number) => number {
  let last = -Infinity;
  return (value) => {
    last = value > last ? value : last + 0.001;
    return last;
  };
}

/** Asks the calling client (MCP elicitation) about one of its run's tool calls; a decline is a no. */
function elicitationChannel(extra: ToolCallExtra): ApprovalAsk {
  return async (approval, signal) => {
    const result = await extra.sendRequest({ method: 'elicitation/create', params: approvalElicitation(approval) }, ElicitResultSchema, {
      signal,
      timeout: Math.max(1000, approval.expiresAt - Date.now()),
    });
    return decisionFromElicitation(result);
  };
}
