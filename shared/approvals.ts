// Approvals for tool calls made from code: which calls need a person's yes, the questions waiting for one,
// and the answers. One `run_python` call can make many inner calls; the client's own prompt sees only
// `run_python`, so Sandbar asks about each inner call that policy says to ask about.

export const TOOL_POLICIES = ['allow', 'ask', 'deny'] as const;
export type ToolPolicy = (typeof TOOL_POLICIES)[number];

export const APPROVAL_DECISIONS = ['allow-once', 'allow-run', 'allow-always', 'deny'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/**
 * A call waiting for an answer. `args` as the code sent them; `codeLine` is the line of code that made it,
 * `line N: text` (one line, control characters removed, bounded: electron/sandbox/run/code-line.ts).
 */
export interface PendingApproval {
  id: string;
  runId: string;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** Epoch ms: no answer by then means deny. */
  expiresAt: number;
  codeLine?: string;
}

/**
 * How a question ended (or a call policy refused without asking), for the run's history and the panel.
 * `argsHash`: the sha256 the answer is bound to (server, tool, canonical arguments); the arguments
 * themselves are not kept.
 */
export interface ApprovalOutcome {
  id: string;
  runId: string;
  server: string;
  tool: string;
  argsHash: string;
  decision: ApprovalDecision | 'timeout' | 'cancelled';
  /** Who answered: panel, tray, cli, client (elicitation), policy, deadline, or run ended. */
  by: string;
  at: number;
}

/** The question in one sentence, for a client's elicitation: the tool, its arguments and the code line. */
export function approvalQuestionText(a: Pick<PendingApproval, 'server' | 'tool' | 'args' | 'codeLine'>, maxArgs = 2000): string {
  const args = JSON.stringify(a.args);
  const shown = args.length > maxArgs ? `${args.slice(0, maxArgs)}…` : args;
  return `Code in run_python wants to call ${a.server}/${a.tool} with ${shown}${a.codeLine ? `, from ${a.codeLine}` : ''}. Allow it?`;
}

/**
 * The policy for one tool: `server/tool` first, then `server`, then the tool's own hints. A tool marked
 * read-only is allowed; any other is asked about. A tool that declares itself destructive is never below
 * `ask` by default (an explicit `allow` for it is the user's choice and stands).
 */
export function toolPolicyFor(
  policies: Readonly<Record<string, ToolPolicy>>,
  server: string,
  tool: string,
  annotations: { readOnlyHint?: unknown; destructiveHint?: unknown } | undefined,
): ToolPolicy {
  const explicit = policies[`${server}/${tool}`] ?? policies[server];
  if (explicit) return explicit;
  if (annotations?.destructiveHint === true) return 'ask';
  return annotations?.readOnlyHint === true ? 'allow' : 'ask';
}
