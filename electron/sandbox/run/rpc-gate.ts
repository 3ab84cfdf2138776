// Bounds the host calls one run can have in flight: at most `maxInFlight` calls and `maxBytes` of their
// frames (requests, and answers not yet taken by the sandbox). The agent keeps its own calls within the
// same bounds (excess calls wait inside the sandbox), so a call that would make the host hold more than
// one more budget's worth of waiting frames comes from code that bypassed the agent: it is refused at once.
// (Pausing the container's output pipe instead would also stall its input: the runtime's attach relays
// both directions in one loop, so answers could never be delivered.)
export interface RpcGateLimits {
  maxInFlight: number;
  maxBytes: number;
}

/** A call's work; `hold(n)` adds bytes it keeps (its answer, until the sandbox has read it). */
export type GatedCall = (hold: (bytes: number) => void) => Promise<void>;

export const DEFAULT_RPC_LIMITS: RpcGateLimits = { maxInFlight: 16, maxBytes: 8 * 1024 * 1024 };

export class RpcGate {
  private inFlight = 0;
  private bytes = 0;
  private waitingBytes = 0;
  private closed = false;
  private readonly waiting: { bytes: number; run: GatedCall }[] = [];

  constructor(private readonly limits: RpcGateLimits) {}

  get stats(): { inFlight: number; bytes: number; waiting: number } {
    return { inFlight: this.inFlight, bytes: this.bytes, waiting: this.waiting.length };
  }

  /** Starts or queues the call; false when it is refused (the waiting room is full) or the run has ended. */
  submit(bytes: number, run: GatedCall): boolean {
    if (this.closed) return false;
    // One waiting frame always fits, however large: the agent may send a single oversized call.
    const full = this.waiting.length >= this.limits.maxInFlight || (this.waiting.length > 0 && this.waitingBytes + bytes > this.limits.maxBytes);
    if (full) return false;
    this.waiting.push({ bytes, run });
    this.waitingBytes += bytes;
    this.drain();
    return true;
  }

  /** The run ended: nothing more starts, and waiting calls are dropped (their container is going away). */
  close(): void {
    this.closed = true;
    this.waiting.length = 0;
    this.waitingBytes = 0;
  }

  private admits(bytes: number): boolean {
    // One call always fits when none is running, however large: otherwise a big frame would wait forever.
    if (this.inFlight === 0) return true;
    return this.inFlight < this.limits.maxInFlight && this.bytes + bytes <= this.limits.maxBytes;
  }

  private drain(): void {
    while (!this.closed && this.waiting.length > 0 && this.admits(this.waiting[0]!.bytes)) {
      const call = this.waiting.shift()!;
      this.waitingBytes -= call.bytes;
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
  }
}
