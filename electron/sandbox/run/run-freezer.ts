// Freezes a run's container while every host call it has in flight waits for a person, and thaws it when
// one is answered (or another call starts), so held time costs no CPU: code cannot compute on while its
// clock is stopped. One operation at a time; the latest wish wins. A pause waits FREEZE_DELAY_MS first, so a
// hold that ends at once (a question merged or settled in a moment) costs no pause and resume. A backend that
// cannot pause (Kubernetes, or a runtime whose pause fails here) is asked once: the run then goes unfrozen,
// its held time still bounded.

export type FreezeOp = (op: 'pause' | 'resume') => Promise<void>;

const THAW_WAIT_MS = 3000;
export const FREEZE_DELAY_MS = 100;

export class RunFreezer {
  private wanted = false;
  private frozen = false;
  private busy: Promise<void> | null = null;
  private failed: string | null = null;
  private ended = false;
  private pauses = 0;
  private delay: NodeJS.Timeout | undefined;

  constructor(
    private readonly op: FreezeOp | undefined,
    private readonly delayMs = FREEZE_DELAY_MS,
  ) {}

  /** Why this run could not be frozen (first failure), or null. */
  get unavailable(): string | null {
    return this.op ? this.failed : 'this sandbox has no pause';
  }

  /** Times the container was frozen. */
  get freezes(): number {
    return this.pauses;
  }

  get isFrozen(): boolean {
    return this.frozen;
  }

  set(frozen: boolean): void {
    if (this.ended) return;
    this.wanted = frozen;
    if (!frozen) {
      clearTimeout(this.delay);
      this.delay = undefined;
      this.kick();
    } else if (!this.frozen && !this.delay) {
      this.delay = setTimeout(() => {
        this.delay = undefined;
        this.kick();
      }, this.delayMs);
    }
  }

  /** The run is ending (a kill follows, which some runtimes refuse on a paused container): thaw, and wait for it, bounded. */
  async release(): Promise<void> {
    this.wanted = false;
    this.ended = true;
    clearTimeout(this.delay);
    this.delay = undefined;
    this.kick();
    let late = false;
    const deadline = new Promise<void>((r) =>
      setTimeout(() => {
        late = true;
        r();
      }, THAW_WAIT_MS).unref(),
    );
    while (this.busy && !late) await Promise.race([this.busy, deadline]);
  }

  private kick(): void {
    if (this.busy || !this.op || (this.failed && !this.frozen) || this.wanted === this.frozen) return;
    const target = this.wanted;
    let ok = false;
    this.busy = this.op(target ? 'pause' : 'resume').then(
      () => {
        ok = true;
        this.frozen = target;
        if (target) this.pauses++;
      },
      (err: unknown) => {
        // A failed pause leaves it running (and no pause is tried again); a failed resume is tried again
        // with the next change or the release, not in a loop.
        this.failed ??= err instanceof Error ? err.message : String(err);
      },
    );
    void this.busy.finally(() => {
      this.busy = null;
      if (ok) this.kick();
    });
  }
}
