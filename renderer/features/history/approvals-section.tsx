// Every decision about the run's tool calls from code: which call, what was decided, by whom and when
// (a person on some channel, the deadline, or policy without asking).
import type { ApprovalOutcome } from '../../../shared/approvals.js';
import { displayLine, DISPLAY_LIMITS } from '../../../shared/display-text.js';
import { Badge } from '../../components/badge.js';
import { formatDateTime } from '../../lib/format.js';

const LABEL: Record<ApprovalOutcome['decision'], string> = {
  'allow-once': 'allowed once',
  'allow-run': 'allowed for the run',
  'allow-always': 'always allowed',
  deny: 'denied',
  timeout: 'no answer: denied',
  cancelled: 'run ended first',
};

const tone = (decision: ApprovalOutcome['decision']) => (decision.startsWith('allow') ? 'ok' : decision === 'cancelled' ? 'warn' : 'fail');

export function ApprovalsSection({ approvals }: { approvals: ApprovalOutcome[] }) {
  return (
    <>
      <h3>Approvals ({approvals.length})</h3>
      <ul className="hist-approvals" aria-label="Approval decisions">
        {approvals.map((a) => (
          <li key={a.id}>
            <Badge tone={tone(a.decision)}>{LABEL[a.decision] ?? a.decision}</Badge> <code>{displayLine(`${a.server}/${a.tool}`, 2 * DISPLAY_LIMITS.name + 1)}</code>{' '}
            <span className="hist-muted">
              by {displayLine(a.by, 40)}, {formatDateTime(a.at)} · arguments {displayLine(a.argsHash.slice(0, 12), 12)}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
