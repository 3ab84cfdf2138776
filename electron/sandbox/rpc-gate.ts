// Bounds the host calls one run can have in flight: at most `maxInFlight` calls and `maxBytes` of their
// frames (requests, and answers not yet taken by the sandbox). Calls beyond that wait, and while any wait
// the container's output pipe is paused, so hostile code that floods calls blocks in its own write()
// instead of filling the host's memory.
export interface RpcGateLimits {
  maxInFlight: number;
  maxBytes: number;
}

export interface FlowControl {
  pause(): void;
  resume(): void;
}

/** A call's work; `hold(n)` adds bytes it keeps (its answer, until the sandbox has read it). */
export type GatedCall = (hold: (bytes: number) => void) => Promise<void>;

export const DEFAULT_RPC_LIMITS: RpcGateLimits = { maxInFlight: 16, maxBytes: 8 * 1024 * 1024 };

export class RpcGate {
  private inFlight = 0;
  private bytes = 0;
  private paused = false;
  private closed = false;
  private readonly waiting: { bytes: number; run: GatedCall }[] = [];

  constructor(
    private readonly limits: RpcGateLimits,
    private readonly flow: FlowControl,
  ) {}

  get stats(): { inFlight: number; bytes: number; waiting: number } {
    return { inFlight: this.inFlight, bytes: this.bytes, waiting: this.waiting.length };
  }

  submit(bytes: number, run: GatedCall): void {
    if (this.closed) return;
    this.waiting.push({ bytes, run });
    this.drain();
  }

  /** The run ended: nothing more starts, and waiting calls are dropped (their container is going away). */
  close(): void {
    this.closed = true;
    this.waiting.length = 0;
    this.setPaused(false);
  }

  private admits(bytes: number): boolean {
    // One call always fits when none is running, however large: otherwise a big frame would wait forever.
    if (this.inFlight === 0) return true;
    return this.inFlight < this.limits.maxInFlight && this.bytes + bytes <= this.limits.maxBytes;
  }

  private drain(): void {
    while (!this.closed && this.waiting.length > 0 && this.admits(this.waiting[0]!.bytes)) {
      const call = this.waiting.shift()!;
      let held = call.bytes;
      this.inFlight += 1;
      this.bytes += held;
      const done = () => {
        this.inFlight -= 1;
        this.bytes -= held;
        this.drain();
      };
      call
        .run((n) => {
          held += n;
          this.bytes += n;
        })
        .then(done, done);
    }
    this.setPaused(!this.closed && this.waiting.length > 0);
  }

  private setPaused(paused: boolean): void {
    if (paused === this.paused) return;
    this.paused = paused;
    if (paused) this.flow.pause();
    else this.flow.resume();
  }
}
