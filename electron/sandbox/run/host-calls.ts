// Answers one run's host calls (the sandbox's `rpc_request` frames): concurrently within the RPC gate's bounds,
// and written back in the order they finish through one outbox that waits while the container's stdin holds
// more than the byte budget, so answers the sandbox is slow to read queue here, counted, not in the pipe.
// A call past the gate, or a stdin that stops taking anything, means code went around the agent: the run ends
// as protocol abuse rather than being answered.
import { errorMessage } from '../../../shared/errors.js';
import { formatBytes } from '../../../shared/limits.js';
import { RpcGate, type RpcGateLimits } from './rpc-gate.js';
import type { SandboxContainer } from './sandbox-container.js';

/** Answers the sandbox's host calls. Throwing sends `success: false` with the message. */
export type RpcHandler = (
  payload: Record<string, unknown>,
  /**
   * `deadline`: when the run times out (epoch ms), read when needed: host calls must finish before it.
   * `hold`: stops the run's clock until the returned release is called (a call waiting for a person's
   * approval is not the code's time, up to the run's hold budget; while every call in flight is held, the
   * container is frozen). `codeLine`: the user's line that made the call, as the sandbox says.
   */
  ctx: { executionId: string; signal: AbortSignal; readonly deadline: number; hold(): () => void; codeLine?: string },
) => Promise<unknown>;

export interface HostCallsOptions {
  container: SandboxContainer;
  executionId: string;
  limits: RpcGateLimits;
  rpc: RpcHandler | undefined;
  signal: AbortSignal;
  deadline: () => number;
  holdClock: () => () => void;
  /** The run ended (or is ending): nothing more is answered. */
  over: () => boolean;
  abuse: (what: string) => void;
  /** +1 when a call starts being served, -1 when it is done (the run freezes only while every one is held). */
  busy?: (delta: number) => void;
}

/** A tool call refused by policy, by a person, or by the approval deadline. */
export class ToolCallDeniedError extends Error {
  readonly denied = true;
}

export class HostCalls {
  private readonly gate: RpcGate;
  private outbox: Promise<void> = Promise.resolve();
  /** Past this much waiting in the container's stdin, the sandbox is not reading: twice the byte budget. */
  readonly maxStdinBacklog: number;

  constructor(private readonly o: HostCallsOptions) {
    this.gate = new RpcGate(o.limits);
    this.maxStdinBacklog = 2 * o.limits.maxBytes;
  }

  submit(id: number, payload: Record<string, unknown>, bytes: number, codeLine: string | undefined): void {
    if (this.o.over()) return;
    // Served concurrently (a slow host call never blocks output or other calls), within the gate's bounds.
    if (!this.gate.submit(bytes, (hold) => this.answer(id, payload, codeLine, hold))) {
      const { maxInFlight, maxBytes } = this.o.limits;
      this.o.abuse(`it sent a host call past the in-flight budget (at most ${maxInFlight} calls and ${formatBytes(maxBytes)} waiting)`);
    }
  }

  close(): void {
    this.gate.close();
  }

  /** Writes a frame to the sandbox; past the stdin bound the run ends. */
  send(json: string): Promise<void> {
    const { backlog, written } = this.o.container.sendJson(json);
    if (backlog > this.maxStdinBacklog) {
      this.o.abuse(`it stopped reading what the host sends (over ${formatBytes(this.maxStdinBacklog)} waiting in its stdin)`);
    }
    return written;
  }

  // Resolves once the answer is in the pipe: until then it counts against the run's in-flight budget.
  private async answer(id: number, payload: Record<string, unknown>, codeLine: string | undefined, hold: (bytes: number) => void): Promise<void> {
    let response: Record<string, unknown>;
    const rpc = this.o.rpc;
    if (!rpc) {
      response = { type: 'rpc_response', id, success: false, error: 'This sandbox has no host calls configured' };
    } else {
      this.o.busy?.(1);
      try {
        const o = this.o;
        const ctx = { executionId: o.executionId, signal: o.signal, get deadline() { return o.deadline(); }, hold: o.holdClock, ...(codeLine ? { codeLine } : {}) };
        const result = await rpc(payload, ctx);
        response = { type: 'rpc_response', id, success: true, payload: result ?? null };
      } catch (err) {
        // `denied`: the agent raises ToolCallDenied, a subclass of MCPError, for it.
        response = { type: 'rpc_response', id, success: false, error: errorMessage(err), ...(err instanceof ToolCallDeniedError ? { kind: 'denied' } : {}) };
      } finally {
        this.o.busy?.(-1);
      }
    }
    if (this.o.over()) return;
    const json = JSON.stringify(response);
    hold(json.length + 1); // counted while it waits in the outbox, not only once it is in the pipe
    let written = Promise.resolve();
    const turn = this.outbox.then(async () => {
      await this.o.container.roomFor(this.o.limits.maxBytes);
      if (!this.o.over()) written = this.send(json);
    });
    this.outbox = turn.catch(() => {});
    await turn;
    await written;
  }
}
