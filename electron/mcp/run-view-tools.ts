// The run view's two app-only tools (`_meta.ui.visibility: ["app"]`): the live state of one of the
// caller's runs (output so far, questions waiting) and an answer to one of those questions. Listed only
// to clients that declare MCP Apps (a client that does not would show them to its model); refused to any
// other caller; they act only on runs the same caller made (caller.ts), and an answer goes through the
// approval broker like every other channel's, recorded as answered `by: "app"`.
import { EXTENSION_ID, getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ApprovalDecision, PendingApproval } from '../../shared/approvals.js';
import {
  RUN_VIEW_ANSWER_TOOL,
  RUN_VIEW_ANSWERED_BY,
  RUN_VIEW_DECISIONS,
  RUN_VIEW_STATUS_TOOL,
  type RunViewStatus,
} from '../../shared/run-view.js';
import type { RunViewRuns } from './run-view-runs.js';

/** What the two tools need: the instance's runs and its approval questions. */
export interface RunViewDeps {
  runs: RunViewRuns;
  pending(): readonly PendingApproval[];
  decide(id: string, decision: ApprovalDecision, by: string): boolean;
}

const appOnly = { ui: { visibility: ['app'] } };

export const RUN_VIEW_TOOLS: Tool[] = [
  {
    name: RUN_VIEW_STATUS_TOOL,
    description: "For Sandbar's run view: a run's output so far and the questions it waits on.",
    inputSchema: { type: 'object', properties: { arguments: { type: 'object' }, runId: { type: 'string' } } },
    _meta: appOnly,
  },
  {
    name: RUN_VIEW_ANSWER_TOOL,
    description: "For Sandbar's run view: answers a question about one of the run's tool calls.",
    inputSchema: {
      type: 'object',
      properties: { runId: { type: 'string' }, approvalId: { type: 'string' }, decision: { type: 'string', enum: [...RUN_VIEW_DECISIONS] } },
      required: ['runId', 'approvalId', 'decision'],
    },
    _meta: appOnly,
  },
];

/** Does this client render MCP Apps (it declared the extension, with the View's type if it names types)? */
export function rendersApps(capabilities: object | null | undefined): boolean {
  const ui = getUiCapability(capabilities as Parameters<typeof getUiCapability>[0]);
  if (!ui) return false;
  return !Array.isArray(ui.mimeTypes) || ui.mimeTypes.includes(RESOURCE_MIME_TYPE);
}

export function runViewToolsFor(capabilities: object | null | undefined): Tool[] {
  return rendersApps(capabilities) ? RUN_VIEW_TOOLS : [];
}

export const isRunViewTool = (name: string): boolean => name === RUN_VIEW_STATUS_TOOL || name === RUN_VIEW_ANSWER_TOOL;

const Id = z.string().min(1).max(128);
const StatusArgs = z.strictObject({ arguments: z.record(z.string(), z.unknown()).optional(), runId: Id.optional() });
const AnswerArgs = z.strictObject({ runId: Id, approvalId: Id, decision: z.enum(RUN_VIEW_DECISIONS) });

const refusal = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

function badArgs(tool: string, error: z.ZodError): CallToolResult {
  const issue = error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'arguments';
  return refusal(`Invalid arguments for ${tool}: ${where}: ${issue?.message ?? 'invalid'}`);
}

/** Handles a call of either tool: `appClient` says whether the caller declared MCP Apps. */
export function handleRunViewTool(
  name: string,
  args: Record<string, unknown> | undefined,
  caller: { credential: string; appClient: boolean },
  deps: RunViewDeps | undefined,
): CallToolResult {
  // A server without the run view (a one-shot command) lists neither tool: it knows neither.
  if (!deps) return refusal(`Unknown tool: ${name}`);
  if (!caller.appClient) {
    return refusal(`${name} is for Sandbar's run view inside an MCP Apps host; this client did not declare MCP Apps (${EXTENSION_ID}).`);
  }
  if (name === RUN_VIEW_STATUS_TOOL) {
    const parsed = StatusArgs.safeParse(args ?? {});
    if (!parsed.success) return badArgs(name, parsed.error);
    const run = deps.runs.find(caller.credential, parsed.data);
    const base = deps.runs.status(run);
    const questions = run ? deps.pending().filter((q) => q.runId === run.id) : [];
    const status: RunViewStatus = {
      ...base,
      questions: questions.map((q) => ({
        id: q.id,
        server: q.server,
        tool: q.tool,
        args: q.args,
        expiresAt: q.expiresAt,
        ...(q.codeLine ? { codeLine: q.codeLine } : {}),
        ...(q.calls ? { calls: q.calls } : {}),
      })),
    };
    const summary = run ? `run ${run.id}: ${status.state}${questions.length ? `, ${questions.length} question(s) waiting` : ''}` : 'no such run of this caller';
    return { content: [{ type: 'text', text: summary }], structuredContent: { ...status } };
  }
  const parsed = AnswerArgs.safeParse(args ?? {});
  if (!parsed.success) return badArgs(name, parsed.error);
  const { runId, approvalId, decision } = parsed.data;
  // Another caller's run reads the same as no run: nothing about it is told.
  if (!deps.runs.find(caller.credential, { runId })) return refusal(`No run ${runId} of this caller.`);
  const question = deps.pending().find((q) => q.id === approvalId && q.runId === runId);
  if (!question || !deps.decide(approvalId, decision, RUN_VIEW_ANSWERED_BY)) {
    return refusal(`That question is no longer waiting (answered on another channel, or past its deadline).`);
  }
  const verb = decision === 'deny' ? 'Denied' : 'Allowed';
  return { content: [{ type: 'text', text: `${verb}: ${question.server}/${question.tool}.` }], structuredContent: { decided: decision } };
}
