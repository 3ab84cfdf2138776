// Requests that reach the engine before its start() has finished (a client calling the moment the endpoint
// listens, while the reaper and the pool's first spec are still on their way). They wait here, unannounced,
// so every subscriber (the history subscribes just before start) hears of each once it is admitted; bounded
// in number and in time, and cancellable while they wait.

/** How long a request that came before start() finished may wait for it. */
export const START_WAIT_MS = 60_000;

export interface Refusal {
  exitReason: 'cancelled' | 'runtime_error';
  message: string;
}

interface Waiting {
  id: string;
  settle: (refusal?: Refusal) => void;
}

export class StartGate {
  private opened = false;
  private readonly waiting: Waiting[] = [];

  constructor(private readonly waitMs = START_WAIT_MS) {}

  get isOpen(): boolean {
    return this.opened;
  }

  /**
   * Holds a request until open(); `settle` admits it then, or at once with a refusal when it cannot wait
   * (`room` requests already wait, its signal aborted, or START_WAIT_MS passed). Called exactly once.
   */
  hold(id: string, room: number, signal: AbortSignal | undefined, busy: (waiting: number) => string, settle: (refusal?: Refusal) => void): void {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => this.refuse(id, { exitReason: 'cancelled', message: 'Execution cancelled before it started' });
    const entry: Waiting = {
      id,
      settle: (refusal) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        settle(refusal);
      },
    };
    if (signal?.aborted) return entry.settle({ exitReason: 'cancelled', message: 'Execution cancelled before it started' });
    if (this.waiting.length >= room) return entry.settle({ exitReason: 'runtime_error', message: busy(this.waiting.length) });
    this.waiting.push(entry);
    signal?.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(
      () => this.refuse(id, { exitReason: 'runtime_error', message: `Sandbar is still starting after ${this.waitMs / 1000} s (it may be waiting for its container runtime); the run was not started` }),
      this.waitMs,
    );
    timer.unref?.();
  }

  /** start() finished: everything waiting goes on, in arrival order. */
  open(): void {
    this.opened = true;
    for (const entry of this.waiting.splice(0)) entry.settle();
  }

  /** Settles one waiting request with a refusal; false when it is not waiting here. */
  refuse(id: string, refusal: Refusal): boolean {
    const at = this.waiting.findIndex((w) => w.id === id);
    if (at === -1) return false;
    const [entry] = this.waiting.splice(at, 1);
    entry!.settle(refusal);
    return true;
  }

  refuseAll(refusal: Refusal): void {
    for (const entry of this.waiting.splice(0)) entry.settle(refusal);
  }
}
