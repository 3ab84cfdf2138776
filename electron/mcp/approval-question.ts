// How an approval is put to the calling client, in either revision: the form of an `elicitation/create`
// (sent as a request on 2025-11-25, embedded in an input-required result on 2026-07-28), and how its
// answer reads as a decision. One wording, one reading, whichever way the question travels.
import { approvalQuestionText, type ApprovalDecision, type PendingApproval } from '../../shared/approvals.js';

/** The params of the elicitation that asks about one call. */
export function approvalElicitation(approval: PendingApproval) {
  return {
    message: approvalQuestionText(approval),
    requestedSchema: {
      type: 'object' as const,
      properties: {
        decision: { type: 'string' as const, title: 'Decision', enum: ['allow-once', 'allow-run', 'deny'], description: 'allow-run: the same call again in this run too' },
      },
      required: ['decision'],
    },
  };
}

/**
 * An elicitation result (from the client: untrusted) as a decision: a decline or cancel is a no; an
 * accepted form names its decision; anything else is no answer (null), and the question stays open.
 */
export function decisionFromElicitation(result: unknown): ApprovalDecision | null {
  if (!result || typeof result !== 'object') return null;
  const { action, content } = result as { action?: unknown; content?: unknown };
  if (action === 'decline' || action === 'cancel') return 'deny';
  if (action !== 'accept' || !content || typeof content !== 'object') return null;
  const decision = (content as { decision?: unknown }).decision;
  return decision === 'allow-once' || decision === 'allow-run' || decision === 'deny' ? decision : null;
}
