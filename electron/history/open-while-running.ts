// A one-shot command (`sandbar run`) opens the history while its container boots instead of before: the
// database work overlaps the 0.2 s the runtime takes, rather than adding to it. Events that arrive before
// the store is open wait, in order, and are recorded the moment it is.
import type { EngineEvent } from '../../shared/execution.js';

interface Recorder {
  start(): Promise<void>;
  record(event: EngineEvent): void;
}

/** Subscribes `history` to `events`; the returned function resolves once everything so far is recorded. */
export function openWhileRunning(subscribe: (listener: (event: EngineEvent) => void) => unknown, history: Recorder): () => Promise<void> {
  const waiting: EngineEvent[] = [];
  let open = false;
  let opening: Promise<void> | undefined;
  subscribe((event) => {
    if (open) {
      history.record(event);
      return;
    }
    waiting.push(event);
    // setImmediate: the submit that emitted this event spawns the container in the same turn; the
    // database opens after that, while the container boots.
    opening ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => history.start())
      .then(() => {
        open = true;
        for (const e of waiting.splice(0)) history.record(e);
      });
  });
  return () => opening ?? Promise.resolve();
}
