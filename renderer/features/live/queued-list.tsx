// Live's queued runs in order, each cancellable before it starts.
import type { ExecutionSummary } from '../../../shared/execution.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { clientLabel, firstLine, formatDuration } from '../../lib/format.js';
import { cancelExecution } from './live-actions.js';

export function QueuedList({ queued, now }: { queued: ExecutionSummary[]; now: number }) {
  return (
    <ol className="queue" aria-label="Queued runs">
      {queued.map((q, i) => (
        <li key={q.id} className="queue-row">
          <span className="queue-pos num" aria-label={`position ${i + 1}`}>
            {i + 1}
          </span>
          <span className="queue-client">{clientLabel(q.client)}</span>
          <code className="queue-code">{firstLine(q.code) || '(empty)'}</code>
          <span className="queue-servers">
            {q.servers.map((s) => (
              <Badge key={s}>{s}</Badge>
            ))}
          </span>
          <span className="muted small num">waiting {formatDuration(Math.max(0, now - q.queuedAt))}</span>
          <Button size="sm" variant="ghost" aria-label={`Cancel queued run ${i + 1}`} onClick={() => void cancelExecution(q.id)}>
            Cancel
          </Button>
        </li>
      ))}
    </ol>
  );
}
