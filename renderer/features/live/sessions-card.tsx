// Sessions kept open between calls: who holds each, how many calls it has had, how old it is, how long
// until it ends if left idle, its memory, the calls it can step back to, whether a call is running or it is
// paused, and End.
import { useState } from 'react';
import type { SessionInfo } from '../../../shared/sessions.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { clientLabel, formatBytes, formatDateTime, formatDuration } from '../../lib/format.js';
import { callCount, checkpointsLabel, formatCountdown, secondsLeft, shortSessionId } from '../../lib/session-format.js';
import { useNow } from '../../lib/use-now.js';
import { useSessionsStore } from '../../stores/sessions-store.js';
import { endSession } from './live-actions.js';

function SessionRow({ session, now }: { session: SessionInfo; now: number }) {
  const [ending, setEnding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const short = shortSessionId(session.id);
  const who = clientLabel(session.client);
  const idleLeft = secondsLeft(session.idleExpiresAt, now);
  const end = () => {
    setEnding(true);
    setError(null);
    void endSession(session.id).then((failed) => {
      setEnding(false);
      setError(failed);
    });
  };
  return (
    <li className="session-row" aria-label={`Session ${short} from ${who}`}>
      <span className="session-state">
        {session.busy ? <Badge tone="accent">in a call</Badge> : <Badge title="Frozen between calls: nothing in it runs">paused</Badge>}
      </span>
      <span className="session-client">{who}</span>
      <span className="session-id mono" title={session.containerName ? `${session.id} (${session.containerName})` : session.id}>
        {short}
      </span>
      <span className="session-calls small num">{callCount(session.calls)}</span>
      <span className="session-checkpoints muted small num" title={`Checkpoints: session "<id>@<n>" continues from the state right after call n`}>
        {checkpointsLabel(session.checkpoints)}
      </span>
      <span className="muted small num" title={`Opened ${formatDateTime(session.openedAt)}`}>
        open {formatDuration(Math.max(0, now - session.openedAt))}
      </span>
      <span className="session-idle small num" title={`Ends at ${formatDateTime(session.idleExpiresAt)} unless a call comes first`}>
        {session.busy ? <span className="muted">idle clock stopped</span> : <>ends if idle in {formatCountdown(idleLeft)}</>}
      </span>
      <span className="muted small num" title="Memory in use at the last sample">
        {session.memoryBytes === null ? 'memory not sampled' : `${formatBytes(session.memoryBytes)} in use`}
      </span>
      <Button size="sm" variant="danger" busy={ending} aria-label={`End session ${short}`} onClick={end}>
        End
      </Button>
      {error !== null && (
        <p role="alert" className="session-error">
          Could not end session {short}: {error}
        </p>
      )}
    </li>
  );
}

export function SessionsCard() {
  const sessions = useSessionsStore((s) => s.sessions);
  const now = useNow(1000, sessions.length > 0);
  if (sessions.length === 0) return null;
  return (
    <section className="section sessions-section" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions ({sessions.length})</h2>
      <ul className="sessions" aria-label="Open sessions">
        {sessions.map((s) => (
          <SessionRow key={s.id} session={s} now={now} />
        ))}
      </ul>
    </section>
  );
}
