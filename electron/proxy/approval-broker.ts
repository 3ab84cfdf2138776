// Questions about tool calls made from code. A call the policy says to ask about waits here (the sandbox
// simply waits for its reply) until a person answers on any channel — panel, tray, CLI, the calling
// client's elicitation — or the deadline denies it; the first answer wins. Answers are bound to the exact
// call: the server, the tool and a hash of the arguments (the call key). Per run, a person is asked a
// bounded number of questions: the same call waiting twice is one question, a call denied (or left
// unanswered) once is denied again without asking, and past the cap calls are denied without asking.
import { createHash, randomBytes } from 'node:crypto';
import type { ApprovalDecision, ApprovalOutcome, PendingApproval } from '../../shared/approvals.js';

/** Another place to ask (the calling client's elicitation): resolves with an answer, or null for none. */
export type ApprovalChannel = (approval: PendingApproval, signal: AbortSignal) => Promise<ApprovalDecision | null>;

/** Questions one run may ask; past it, calls that need an answer are denied at once. */
export const MAX_QUESTIONS_PER_RUN = 20;
/** Refusals without a question (policy, nobody to ask, the cap) recorded per run; the rest are only counted. */
export const MAX_RECORDED_REFUSALS_PER_RUN = 50;

export interface ApprovalBrokerOptions {
  timeoutMs: () => number;
  /** Every question (again when an identical call joins it) and every outcome, for the panel, tray and history. */
  onRequested?: (approval: PendingApproval) => void;
  onResolved?: (outcome: ApprovalOutcome) => void;
  /** `allow-always`: make it the policy for this server's tool. */
  allowAlways: (server: string, tool: string) => void;
  maxQuestionsPerRun?: number;
  now?: () => number;
}

export type RequestResult =
  | { allowed: true; outcome: ApprovalOutcome | null; why: 'answer' | 'allowed-in-run' }
  | { allowed: false; outcome: ApprovalOutcome | null; why: 'answer' | 'denied-in-run' | 'question-cap' | 'run-ended' };

type Ending = ApprovalDecision | 'timeout' | 'cancelled';

interface Waiting {
  approval: PendingApproval;
  key: string;
  settle: (decision: Ending, by: string) => void;
  /** Every identical call waiting on this question. */
  callers: ((result: RequestResult) => void)[];
}

interface RunState {
  /** `allow-run` answers: call keys allowed again in this run. */
  allowed: Set<string>;
  /** Call keys a person denied or left unanswered: denied again without asking. */
  denied: Set<string>;
  questions: number;
  refusalsRecorded: number;
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

const ALLOWING: readonly Ending[] = ['allow-once', 'allow-run', 'allow-always'];

export class ApprovalBroker {
  private readonly waiting = new Map<string, Waiting>();
  /** Open questions by run and call key, so an identical call joins the one already asked. */
  private readonly byCall = new Map<string, Waiting>();
  private readonly runs = new Map<string, RunState>();
  private readonly now: () => number;

  constructor(private readonly options: ApprovalBrokerOptions) {
    this.now = options.now ?? Date.now;
  }

  get maxQuestionsPerRun(): number {
    return this.options.maxQuestionsPerRun ?? MAX_QUESTIONS_PER_RUN;
  }

  list(): PendingApproval[] {
    return [...this.waiting.values()].map((w) => w.approval);
  }

  /**
   * Waits for an answer about one call: allowed, or not (a no, the deadline, the run ending first, a no
   * earlier in the run, or the run's question cap). `until`: the question expires by then at the latest
   * (when the run itself would end).
   */
  request(
    call: { runId: string; server: string; tool: string; args: Record<string, unknown>; codeLine?: string },
    options: { channels?: readonly ApprovalChannel[]; signal?: AbortSignal; until?: number } = {},
  ): Promise<RequestResult> {
    if (options.signal?.aborted) return Promise.resolve({ allowed: false, outcome: null, why: 'run-ended' });
    const known = this.withoutAsking(call);
    if (known) return Promise.resolve(known);
    const key = callKey(call.server, call.tool, call.args);
    const run = this.run(call.runId);
    const joined = this.byCall.get(`${call.runId}\0${key}`);
    if (joined) return this.join(joined, options.signal);
    run.questions++;
    const id = randomBytes(6).toString('hex');
    const expiresAt = Math.min(this.now() + this.options.timeoutMs(), options.until ?? Infinity);
    const approval: PendingApproval = { id, ...call, expiresAt };
    const callKeyOfRun = `${call.runId}\0${key}`;
    return new Promise((resolve) => {
      const askChannels = new AbortController();
      const timer = setTimeout(() => settle('timeout', 'deadline'), Math.max(0, approval.expiresAt - this.now()));
      const onAbort = () => settle('cancelled', 'run ended');
      const settle = (decision: Ending, by: string) => {
        if (this.waiting.get(id) !== entry) return;
        this.waiting.delete(id);
        this.byCall.delete(callKeyOfRun);
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        askChannels.abort();
        const state = this.runs.get(call.runId);
        if (decision === 'allow-run') state?.allowed.add(key);
        if (decision === 'deny' || decision === 'timeout') state?.denied.add(key);
        if (decision === 'allow-always') this.options.allowAlways(call.server, call.tool);
        const outcome: ApprovalOutcome = { id, runId: call.runId, server: call.server, tool: call.tool, argsHash: key, decision, by, at: this.now() };
        this.options.onResolved?.(outcome);
        const result: RequestResult = ALLOWING.includes(decision) ? { allowed: true, outcome, why: 'answer' } : { allowed: false, outcome, why: 'answer' };
        for (const caller of entry.callers) caller(result);
      };
      const entry: Waiting = { approval, key, settle, callers: [resolve] };
      this.waiting.set(id, entry);
      this.byCall.set(callKeyOfRun, entry);
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

  /**
   * The answer a call gets without a question, or null when it needs one (or joins the identical one
   * waiting): what this run already answered for the same call (allow-run; a deny or no answer), or a
   * refusal past the run's question cap (recorded like a policy refusal).
   */
  withoutAsking(call: { runId: string; server: string; tool: string; args: Record<string, unknown> }): RequestResult | null {
    const run = this.runs.get(call.runId);
    if (!run) return null;
    const key = callKey(call.server, call.tool, call.args);
    if (run.allowed.has(key)) return { allowed: true, outcome: null, why: 'allowed-in-run' };
    if (run.denied.has(key)) return { allowed: false, outcome: null, why: 'denied-in-run' };
    if (this.byCall.has(`${call.runId}\0${key}`) || run.questions < this.maxQuestionsPerRun) return null;
    return { allowed: false, outcome: this.refused(call, 'question cap'), why: 'question-cap' };
  }

  /** Answers a waiting question; false when there is none by that id (answered already, or expired). */
  decide(id: string, decision: ApprovalDecision, by: string): boolean {
    const entry = this.waiting.get(id);
    if (!entry) return false;
    entry.settle(decision, by);
    return true;
  }

  /**
   * A call refused without a question (policy `deny`, nobody to ask, the question cap): recorded like an
   * answer, so the run's history holds the decisions about its calls, up to MAX_RECORDED_REFUSALS_PER_RUN
   * (a loop of refused calls must not grow the history without bound).
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
    const run = this.run(call.runId);
    if (run.refusalsRecorded++ < MAX_RECORDED_REFUSALS_PER_RUN) this.options.onResolved?.(outcome);
    return outcome;
  }

  /** The run is over: what it allowed and denied ends with it. */
  endRun(runId: string): void {
    this.runs.delete(runId);
  }

  private run(runId: string): RunState {
    let state = this.runs.get(runId);
    if (!state) {
      state = { allowed: new Set(), denied: new Set(), questions: 0, refusalsRecorded: 0 };
      this.runs.set(runId, state);
    }
    return state;
  }

  /** An identical call waits on the open question: the same answer settles both. */
  private join(entry: Waiting, signal: AbortSignal | undefined): Promise<RequestResult> {
    return new Promise((resolve) => {
      const caller = (result: RequestResult) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(result);
      };
      // This caller's run ended: it leaves; the question stays for the others.
      const onAbort = () => {
        entry.callers = entry.callers.filter((c) => c !== caller);
        resolve({ allowed: false, outcome: null, why: 'run-ended' });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      entry.callers.push(caller);
      entry.approval.calls = entry.callers.length;
      this.options.onRequested?.(entry.approval);
    });
  }
}
