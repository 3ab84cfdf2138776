// Approvals for tool calls made from code: which calls need a person's yes, the questions waiting for one,
// and the answers. One `run_python` call can make many inner calls; the client's own prompt sees only
// `run_python`, so Sandbar asks about each inner call that policy says to ask about.
import { boundBytes, displayJson, displayLine, DISPLAY_LIMITS, utf8Length } from './display-text.js';

export const TOOL_POLICIES = ['allow', 'ask', 'deny'] as const;
export type ToolPolicy = (typeof TOOL_POLICIES)[number];

export const APPROVAL_DECISIONS = ['allow-once', 'allow-run', 'allow-always', 'deny'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/**
 * A call waiting for an answer. `args` as the code sent them; `codeLine` is the line of code that made it,
 * `line N: text` (one line, control characters removed, bounded: electron/sandbox/run/code-line.ts): the
 * sandbox reports N, the text is the host's copy of line N, and it is only there when that text calls the
 * same server and tool (electron/proxy/code-line-check.ts). Surfaces show it with CODE_LINE_LABEL.
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
  /** Identical calls of the run waiting on this one question (the answer covers each); absent for one. */
  calls?: number;
}

/** How every surface labels the code line: its number is the sandbox's word, not a fact. */
export const CODE_LINE_LABEL = 'as reported by the sandbox';

/** `line N (as reported by the sandbox): text`, one bounded line. */
export function labelledCodeLine(codeLine: string, maxChars: number = DISPLAY_LIMITS.codeLine): string {
  const labelled = codeLine.replace(/^(line \d+): /, `$1 (${CODE_LINE_LABEL}): `);
  return displayLine(labelled === codeLine ? `${codeLine} (${CODE_LINE_LABEL})` : labelled, maxChars);
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

/**
 * The question in one sentence, for a client's elicitation: the tool, its arguments and the labelled code
 * line, sanitised, and at most DISPLAY_LIMITS.elicitationBytes (4 KiB) of UTF-8 whatever the arguments.
 */
export function approvalQuestionText(a: Pick<PendingApproval, 'server' | 'tool' | 'args' | 'codeLine' | 'calls'>): string {
  const name = displayLine(`${a.server}/${a.tool}`, 2 * DISPLAY_LIMITS.name + 1);
  const head = `Code in run_python wants to call ${name}${a.calls && a.calls > 1 ? ` (${a.calls} identical calls wait: the answer covers each)` : ''} with `;
  const tail = `${a.codeLine ? `, from ${labelledCodeLine(a.codeLine)}` : ''}. Allow it?`;
  const room = DISPLAY_LIMITS.elicitationBytes - utf8Length(head) - utf8Length(tail);
  return boundBytes(`${head}${boundBytes(displayJson(a.args, DISPLAY_LIMITS.elicitationBytes), Math.max(16, room))}${tail}`, DISPLAY_LIMITS.elicitationBytes);
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
