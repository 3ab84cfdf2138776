// A run's clock with holds: while a host call waits for a person's answer the run's time stops, but at most
// `maxHeldMs` in total (settings approvalTimeoutSec), so a run never lives past its wall-clock cap of
// timeout + maxHeld, however many questions it asks. Pure: the caller reads `deadline()` after each change
// and sets its timer to it.

export class HoldClock {
  private startedAt = 0;
  private holds = 0;
  private heldSince: number | null = null;
  private heldTotal = 0;

  constructor(
    private readonly timeoutMs: number,
    private readonly maxHeldMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.startedAt = this.now();
  }

  get holding(): boolean {
    return this.holds > 0;
  }

  /** Time spent held so far (all of it, also past the budget). */
  heldMs(): number {
    return this.heldTotal + (this.heldSince === null ? 0 : this.now() - this.heldSince);
  }

  /** The held time that stopped the clock: at most the budget. */
  creditedMs(): number {
    return Math.min(this.heldMs(), this.maxHeldMs);
  }

  /** The end of the run whatever it does: timeout + the whole hold budget after the start. */
  wallCap(): number {
    return this.startedAt + this.timeoutMs + this.maxHeldMs;
  }

  /**
   * When the run times out if nothing changes: while held, the clock waits out what is left of the budget
   * and then runs on, which always lands on the wall cap; otherwise the timeout plus the credited holds.
   */
  deadline(): number {
    return this.holding ? this.wallCap() : this.startedAt + this.timeoutMs + this.creditedMs();
  }

  /** Stops the clock until the returned release is called (idempotent). Holds overlap: the clock stops once. */
  hold(): () => void {
    if (this.holds++ === 0) this.heldSince = this.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds > 0 || this.heldSince === null) return;
      this.heldTotal += this.now() - this.heldSince;
      this.heldSince = null;
    };
  }
}
