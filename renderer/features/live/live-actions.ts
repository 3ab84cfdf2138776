// What the Live view asks of the main process; failures become toasts.
import { api, describeError } from '../../api/index.js';
import { useLiveStore } from '../../stores/live-store.js';
import { useSessionsStore } from '../../stores/sessions-store.js';
import { toast } from '../../stores/ui-store.js';

export async function cancelExecution(id: string): Promise<void> {
  try {
    const { cancelled } = await api.call('executions.cancel', { id });
    if (!cancelled) toast('info', 'That run had already finished.');
  } catch (err) {
    toast('fail', `Could not stop the run: ${describeError(err)}`);
  }
}

export async function setPaused(paused: boolean): Promise<void> {
  const store = useLiveStore.getState();
  const before = store.paused;
  store.pausedSet(paused);
  try {
    const result = await api.call('live.setPaused', { paused });
    useLiveStore.getState().pausedSet(result.paused);
  } catch (err) {
    useLiveStore.getState().pausedSet(before);
    toast('fail', `Could not ${paused ? 'pause' : 'resume'} new runs: ${describeError(err)}`);
  }
}

/** Ends a session; resolves to the reason it could not, or null (an already-ended one is not a failure). */
export async function endSession(id: string): Promise<string | null> {
  try {
    const { closed } = await api.call('sessions.close', { id });
    useSessionsStore.getState().sessionEnded(id);
    if (!closed) toast('info', 'That session had already ended.');
    return null;
  } catch (err) {
    return describeError(err);
  }
}
