// A session's checkpoints as the registry keeps them (issue 28): which calls `<id>@<n>` can return to, which of
// them were taken while the code's threads ran, and what the next result must say. The agent's report is
// untrusted: only this call's checkpoint and ones already known are kept, never more than the setting says.
import type { CheckpointReport } from '../sandbox/engine-config.js';

export interface CheckpointState {
  /** Calls whose checkpoints the agent keeps, oldest first (what `<id>@<n>` can return to). */
  checkpoints: number[];
  /** Said once in the next result: checkpoints dropped for memory, threads a step back did not bring back. */
  notes: string[];
  /** Checkpoints taken while threads the code started were running. */
  threaded: Set<number>;
  /** Why this session's sandbox keeps no checkpoints (gVisor: the backend's features, or the agent's report). */
  unavailable: string | null;
}

/** When the agent says it cannot keep checkpoints although the backend's features expected it could. */
export const AGENT_CANNOT_CHECKPOINT =
  'under gVisor, or wherever PR_SET_CHILD_SUBREAPER is refused, the relay cannot adopt the process that holds a checkpoint, so this session keeps none';

/** Said once in a session's first result when sessionCheckpoints asks for checkpoints its sandbox cannot keep. */
export function noCheckpointsNote(why: string, keep: number): string {
  return `sessionCheckpoints is ${keep}, but this sandbox keeps no checkpoints: ${why}.`;
}

/** After `call` ended normally: keep its checkpoint (if made) and the earlier ones still there, at most `keep`. */
export function recordCheckpoint(state: CheckpointState, call: number, report: CheckpointReport | undefined, keep: number, memoryLimit: string): void {
  if (report?.unavailable && state.unavailable === null) {
    state.unavailable = AGENT_CANNOT_CHECKPOINT;
    if (keep > 0) state.notes.push(noCheckpointsNote(AGENT_CANNOT_CHECKPOINT, keep));
  }
  // The agent keeps at most keep - 1 older ones before it forks this call's (it ends the oldest past that
  // unasked), then drops more for memory, oldest first; the list is cut the same way before the drops apply.
  const older = state.checkpoints.filter((c) => c < call);
  const known = older.slice(Math.max(0, older.length - Math.max(0, keep - 1)));
  const dropped = new Set(report?.dropped ?? []);
  const forMemory = known.filter((c) => dropped.has(c));
  const kept = known.filter((c) => !dropped.has(c));
  if (keep > 0 && report?.made === call) kept.push(call);
  state.checkpoints = kept.slice(Math.max(0, kept.length - keep));
  if (forMemory.length > 0) {
    const many = forMemory.length > 1 ? 's' : '';
    state.notes.push(`checkpoint${many} of call${many} ${forMemory.join(', ')} dropped to stay within the memory limit ${memoryLimit}.`);
  }
  for (const c of state.threaded) if (c >= call || !state.checkpoints.includes(c)) state.threaded.delete(c);
  if (report?.threads && state.checkpoints.includes(call)) state.threaded.add(call);
}

/** Before a call that steps back to `at`: the later checkpoints go, and threads running then are said to be gone. */
export function stepBack(state: CheckpointState, at: number): void {
  state.checkpoints = state.checkpoints.filter((c) => c <= at);
  if (state.threaded.has(at)) state.notes.push(`threads the code had started by call ${at} were running then; a step back does not bring them back.`);
}
