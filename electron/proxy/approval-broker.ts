// Questions about tool calls made from code. A call the policy says to ask about waits here (the sandbox
// simply waits for its reply) until a person answers on any channel — panel, tray, CLI, the calling
// client's elicitation — or the deadline denies it; the first answer wins. Answers are bound to the exact
// call: the server, the tool and a hash of the arguments.
import { createHash, randomBytes } from 'node:crypto';
import type { ApprovalDecision, ApprovalOutcome, PendingApproval } from '../../shared/approvals.js';

/** Another place to ask (the calling client's elicitation): resolves with an answer, or null for none. */
export type ApprovalChannel = (approval: PendingApproval, signal: AbortSignal) => Promise<ApprovalDecision | null>;

export interface ApprovalBrokerOptions {
  timeoutMs: () => number;
  /** Every question and every outcome, for the panel, tray and history. */
  onRequested?: (approval: PendingApproval) => void;
  onResolved?: (outcome: ApprovalOutcome) => void;
  /** `allow-always`: make it the policy for this server's tool. */
  allowAlways: (server: string, tool: string) => void;
  now?: () => number;
}

interface Waiting {
  approval: PendingApproval;
  key: string;
  settle: (decision: ApprovalDecision | 'timeout' | 'cancelled', by: string) => void;
}

/** Key order does not change what a call does, so it does not change the hash. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value as object).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
}

export function callKey(server: string, tool: string, args: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify([server, tool, canonical(args)])).digest('hex');
}

export class ApprovalBroker {
  private readonly waiting = new Map<string, Waiting>();
  /** `allow-run` answers: run id → call keys allowed again in that run. */
  private readonly allowedInRun = new Map<string, Set<string>>();
  private readonly now: () => number;

  constructor(private readonly options: ApprovalBrokerOptions) {
    this.now = options.now ?? Date.now;
  }

  list(): PendingApproval[] {
    return [...this.waiting.values()].map((w) => w.approval);
  }

  /**
   * Waits for an answer about one call. Resolves true to allow; false to deny (a no, the deadline, or the
   * run ending first).
   */
  request(
    call: { runId: string; server: string; tool: string; args: Record<string, unknown>; codeLine?: string },
    options: { channels?: readonly ApprovalChannel[]; signal?: AbortSignal } = {},
  ): Promise<{ allowed: boolean; outcome: ApprovalOutcome | null }> {
    const key = callKey(call.server, call.tool, call.args);
    if (this.allowedInRun.get(call.runId)?.has(key)) return Promise.resolve({ allowed: true, outcome: null });
    const id = randomBytes(6).toString('hex');
    const approval: PendingApproval = { id, ...call, expiresAt: this.now() + this.options.timeoutMs() };
    return new Promise((resolve) => {
      const askChannels = new AbortController();
      const timer = setTimeout(() => settle('timeout', 'deadline'), approval.expiresAt - this.now());
      const onAbort = () => settle('cancelled', 'run ended');
      const settle = (decision: ApprovalDecision | 'timeout' | 'cancelled', by: string) => {
        if (!this.waiting.has(id)) return;
        this.waiting.delete(id);
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        askChannels.abort();
        if (decision === 'allow-run') this.allowedInRun.set(call.runId, new Set([...(this.allowedInRun.get(call.runId) ?? []), key]));
        if (decision === 'allow-always') this.options.allowAlways(call.server, call.tool);
        const outcome: ApprovalOutcome = { id, runId: call.runId, server: call.server, tool: call.tool, argsHash: key, decision, by, at: this.now() };
        this.options.onResolved?.(outcome);
        resolve({ allowed: decision === 'allow-once' || decision === 'allow-run' || decision === 'allow-always', outcome });
      };
      this.waiting.set(id, { approval, key, settle });
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.options.onRequested?.(approval);
      for (const channel of options.channels ?? []) {
        channel(approval, askChannels.signal).then(
          (decision) => {
            if (decision) settle(decision, 'client');
          },
          () => {
            // A channel that fails (the client went away) simply does not answer; the others still can.
          },
        );
      }
    });
  }

  /** Answers a waiting question; false when there is none by that id (answered already, or expired). */
  decide(id: string, decision: ApprovalDecision, by: string): boolean {
    const entry = this.waiting.get(id);
    if (!entry) return false;
    entry.settle(decision, by);
    return true;
  }

  /**
   * A call refused without a question (policy `deny`, or nobody to ask): recorded like an answer, so the
   * run's history holds every decision about its calls.
   */
  refused(call: { runId: string; server: string; tool: string; args: Record<string, unknown> }, by: string): ApprovalOutcome {
    const outcome: ApprovalOutcome = {
      id: randomBytes(6).toString('hex'),
      runId: call.runId,
      server: call.server,
      tool: call.tool,
      argsHash: callKey(call.server, call.tool, call.args),
      decision: 'deny',
      by,
      at: this.now(),
    };
    this.options.onResolved?.(outcome);
    return outcome;
  }

  /** The run is over: its `allow-run` answers end with it. */
  endRun(runId: string): void {
    this.allowedInRun.delete(runId);
  }
}
