// The last finished runs, newest first, each with how it ended in words, its connections through the egress
// proxy counted (when it made any) and a link to its history.
import type { FinishedExecution } from '../../../shared/contract.js';
import { StatusDot } from '../../components/badge.js';
import { historyDetailHref } from '../../app/routes.js';
import { clientLabel, firstLine, formatDuration, formatTime } from '../../lib/format.js';
import { egressSummary } from '../egress/egress-list.js';
import { describeExit, exitTone } from './exit-reason.js';

export function RecentStrip({ recent }: { recent: FinishedExecution[] }) {
  return (
    <ul className="recent" aria-label="Recently finished runs">
      {recent.map((r) => {
        const words = describeExit(r);
        return (
          <li key={r.id} className="recent-item">
            <a className="recent-link" href={historyDetailHref(r.id)} aria-label={`${words}, ${clientLabel(r.client)}, ${formatTime(r.finishedAt)}: open in History`}>
              <span className="recent-top">
                <StatusDot tone={exitTone(r.exitReason)} label={r.exitReason} />
                <span className={`recent-reason tone-${exitTone(r.exitReason)}`}>{words}</span>
              </span>
              <code className="recent-code">{firstLine(r.code, 48) || '(empty)'}</code>
              <span className="recent-meta muted small">{clientLabel(r.client)}</span>
              {(r.egress?.length ?? 0) + (r.egressDropped ?? 0) > 0 && <span className="recent-meta muted small">{egressSummary(r.egress ?? [], r.egressDropped)}</span>}
              <span className="recent-meta muted small num">
                {formatDuration(r.durationMs)} · <time dateTime={new Date(r.finishedAt).toISOString()}>{formatTime(r.finishedAt)}</time>
              </span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}
