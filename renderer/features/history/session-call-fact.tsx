// A run's place in its session in History's detail pane (issue 28): its call, whether a later step back
// discarded it or it continued from a checkpoint, and whether its own checkpoint can be returned to now
// (and how). The marks come from the loaded rows, the checkpoints from the live sessions.
import type { SessionRef } from '../../../shared/sessions.js';
import { CopyButton } from '../../components/copy-button.js';
import { checkpointsLabel, sessionCallLabel } from '../../lib/session-format.js';
import { useHistoryStore } from '../../stores/history-store.js';
import { useSessionsStore } from '../../stores/sessions-store.js';
import { callCheckpoint, selectSessionCallMarks, type CallCheckpoint } from './session-rows.js';

function CheckpointLine({ checkpoint }: { checkpoint: CallCheckpoint }) {
  switch (checkpoint.kind) {
    case 'kept':
      return (
        <span className="hist-session-line" data-checkpoint="kept">
          Checkpoint kept: <code>session: "{checkpoint.request}"</code> continues from right after this call{' '}
          <CopyButton text={checkpoint.request} label="Copy" what="checkpoint id" />
        </span>
      );
    case 'not-kept':
      return (
        <span className="hist-session-line hist-muted" data-checkpoint="not-kept">
          No checkpoint of this call is kept now (the session {checkpointsLabel(checkpoint.kept)})
        </span>
      );
    case 'discarded':
      return (
        <span className="hist-session-line hist-muted" data-checkpoint="discarded">
          Its checkpoint was discarded with it
        </span>
      );
    case 'ended':
      return (
        <span className="hist-session-line hist-muted" data-checkpoint="ended">
          The session has ended: its checkpoints went with it
        </span>
      );
  }
}

/** The run's session call, its step-back marks and its checkpoint, and the way to list the session's calls alone. */
export function SessionCallFact({ runId, session }: { runId: string; session: SessionRef }) {
  const focused = useHistoryStore((s) => s.sessionFocus === session.id);
  const mark = useHistoryStore((s) => selectSessionCallMarks(s).get(runId));
  const live = useSessionsStore((s) => s.sessions);
  const discarded = mark?.discarded ?? false;
  return (
    <>
      <span title={session.id}>{sessionCallLabel(session)}</span>
      {mark?.from != null && <span className="hist-session-from"> · from @{mark.from}</span>}{' '}
      {!focused && (
        <button type="button" className="link-btn" onClick={() => useHistoryStore.getState().sessionFocused(session.id)}>
          Show its calls
        </button>
      )}
      {mark?.from != null && (
        <span className="hist-session-line">
          Stepped back: continued from the checkpoint of call {mark.from}, discarding the calls after it
        </span>
      )}
      {discarded && (
        <span className="hist-session-line">
          <span className="hist-discarded">discarded</span> A later call stepped back to an earlier checkpoint: what this call did is gone
          from the session
        </span>
      )}
      <CheckpointLine checkpoint={callCheckpoint(session, discarded, live)} />
    </>
  );
}
