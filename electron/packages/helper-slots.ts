// The bounds on package helpers, in one place: at most MAX_PACKAGE_HELPERS pip containers at once (the rest
// wait first come, first served), and a build shared by every caller that wants the same set, which stops
// only when the last of them has gone (one caller cancelling does not take the others' build away).
import { AppError } from '../../shared/errors.js';

/** pip helper containers running at once; more would let package runs outgrow the concurrency cap. */
export const MAX_PACKAGE_HELPERS = 2;

/** A FIFO counting semaphore whose waiters can give up (their signal aborts) without holding a slot. */
export class HelperSlots {
  private busy = 0;
  private readonly waiting: { grant: () => void; signal: AbortSignal | undefined; onAbort: () => void }[] = [];

  constructor(readonly size: number = MAX_PACKAGE_HELPERS) {}

  get inUse(): number {
    return this.busy;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.busy--;
      this.next();
    };
    if (this.busy < this.size && this.waiting.length === 0) {
      this.busy++;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const entry = {
        signal,
        grant: () => {
          signal?.removeEventListener('abort', entry.onAbort);
          this.busy++;
          resolve(release);
        },
        onAbort: () => {
          const at = this.waiting.indexOf(entry);
          if (at !== -1) this.waiting.splice(at, 1);
          reject(abortError(signal));
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private next(): void {
    while (this.busy < this.size && this.waiting.length > 0) this.waiting.shift()!.grant();
  }
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  // Our own reasons (the deadline) say what happened; a caller's plain abort is a cancellation.
  return reason instanceof AppError ? reason : new AppError('cancelled', 'Preparing the packages was cancelled');
}

/**
 * One build many callers wait on. Each caller joins with its own signal: its abort rejects that caller
 * only; the build's own signal aborts when no caller is left waiting.
 */
export class SharedBuild<T> {
  private waiters = 0;
  private settled = false;
  private readonly controller = new AbortController();
  readonly promise: Promise<T>;

  constructor(run: (signal: AbortSignal) => Promise<T>) {
    this.promise = run(this.controller.signal);
    void this.promise.then(
      () => (this.settled = true),
      () => (this.settled = true),
    );
  }

  /** Whether the build was stopped because every caller left. */
  get abandoned(): boolean {
    return this.controller.signal.aborted;
  }

  join(signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    this.waiters++;
    return new Promise<T>((resolve, reject) => {
      let left = false;
      const leave = () => {
        if (left) return;
        left = true;
        signal?.removeEventListener('abort', onAbort);
        this.waiters--;
      };
      const onAbort = () => {
        leave();
        reject(abortError(signal));
        if (this.waiters === 0 && !this.settled) this.controller.abort(new AppError('cancelled', 'Every run waiting for these packages was cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.promise.then(
        (value) => {
          leave();
          resolve(value);
        },
        (err: unknown) => {
          leave();
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }
}
