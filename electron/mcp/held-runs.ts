// Approvals through MCP 2026-07-28's multi round-trip requests. That revision has no server-to-client
// requests: a `tools/call` that needs the client's answer ends with an input-required result (the
// questions and a signed request state), and the client retries the call with its answers. The run does
// not end with the first request: it is held here, its container waiting on the proxied call, and every
// retry joins the same run. The first answer from any channel wins (the panel, the tray and the CLI can
// still answer; a retry then just gets the result). A client that goes away mid-wait cancels the run, as
// on 2025-11-25; one that never comes back with an answer gets the approval deadline's deny.
import { inputRequired, ProtocolError, ProtocolErrorCode, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalDecision, PendingApproval } from '../../shared/approvals.js';
import type { Settings } from '../../shared/settings.js';
import type { Logger } from '../logger.js';
import { callKey } from '../proxy/approval-broker.js';
import type { ApprovalAsk, RunResult, RunTicket } from '../runs/ports.js';
import { approvalElicitation, decisionFromElicitation } from './approval-question.js';
import type { RequestStateSigner } from './request-state.js';
import { progressValues, reportProgress, type RunHold, type RunPythonDeps, type ToolCallExtra } from './run-python-handler.js';

export interface HeldRunsOptions {
  /** The runs' events (progress) and the question each waits on. */
  runs: Pick<RunPythonDeps['runs'], 'events' | 'pendingApproval'>;
  settings: () => Settings;
  signer: RequestStateSigner;
  log: Logger;
}

interface Question {
  approval: PendingApproval;
  answer: (decision: ApprovalDecision) => void;
}

interface HeldRun {
  id: string;
  credential: string;
  args: string;
  /** The first request's handler's shape of the finished run (with its session's line and info). */
  shape: (result: RunResult) => CallToolResult;
  abort: AbortController;
  result?: RunResult;
  failure?: unknown;
  /** Questions open for this client, by approval id; answered ones leave (by any channel). */
  questions: Map<string, Question>;
  /** The requests waiting on the run (one, unless a client retries twice at once): woken by a result or a question. */
  wakers: Set<() => void>;
  forgetTimer?: NodeJS.Timeout;
}

export type RunAnswer = CallToolResult | InputRequiredResult;

/** The hash a request state carries of the call's arguments (key order does not matter). */
export const argsHash = (args: Record<string, unknown> | undefined) => callKey('run_python', '', args ?? {});

function wakeAll(run: HeldRun): void {
  for (const wake of [...run.wakers]) wake();
}

export class HeldRuns {
  private readonly runs = new Map<string, HeldRun>();

  constructor(private readonly options: HeldRunsOptions) {}

  /** For a first call from a client that declared elicitation: what handleRunPython hands its run to. */
  hold(credential: string, args: Record<string, unknown> | undefined): RunHold<InputRequiredResult> {
    const abort = new AbortController();
    // The run's id is known once it started; its questions come only after that.
    const run: HeldRun = { id: '', credential, args: argsHash(args), shape: () => ({ content: [] }), abort, questions: new Map(), wakers: new Set() };
    return {
      signal: abort.signal,
      ask: this.channel(run),
      attach: (ticket, extra, shape) => this.attach(Object.assign(run, { id: ticket.id, shape }), ticket, extra),
    };
  }

  /**
   * A retry with a request state: checked (signature, caller, the same call, expiry, once), its answers
   * given, then the call waits on the same run. A refused state changes nothing: the run keeps waiting.
   */
  async resume(state: string, credential: string, args: Record<string, unknown> | undefined, responses: Record<string, unknown> | undefined, extra: ToolCallExtra): Promise<RunAnswer> {
    const opened = this.options.signer.open(state, credential, { args: argsHash(args) });
    if (!opened.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, opened.message, { reason: opened.reason });
    const run = this.runs.get(opened.claims.run);
    if (!run || run.credential !== credential) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid requestState: its run is no longer held (its result was delivered or kept past the deadline). Call run_python again without it.', { reason: 'unknown-run' });
    }
    for (const id of opened.claims.questions) {
      const question = run.questions.get(id);
      const decision = question ? decisionFromElicitation(responses?.[id]) : null;
      // No question by that id: answered already on another channel, or past its deadline; the first answer won.
      if (question && decision) question.answer(decision);
    }
    return this.wait(run, extra);
  }

  private attach(run: HeldRun, ticket: RunTicket, extra: ToolCallExtra): Promise<RunAnswer> {
    this.runs.set(run.id, run);
    ticket.result.then(
      (result) => this.finished(run, { result }),
      (failure: unknown) => this.finished(run, { failure }),
    );
    return this.wait(run, extra);
  }

  private finished(run: HeldRun, outcome: { result?: RunResult; failure?: unknown }): void {
    Object.assign(run, outcome);
    if (run.wakers.size > 0) return wakeAll(run);
    // Nobody is waiting right now: keep the result for a retry still on its way, as long as its state lives.
    run.forgetTimer = setTimeout(() => this.forget(run), this.options.settings().approvalTimeoutSec * 1000);
    run.forgetTimer.unref();
  }

  private forget(run: HeldRun): void {
    clearTimeout(run.forgetTimer);
    if (this.runs.get(run.id) === run) this.runs.delete(run.id);
  }

  /** Another place the approval broker asks: the question goes to the client with the next answer to a call. */
  private channel(run: HeldRun): ApprovalAsk {
    return (approval, signal) =>
      new Promise((resolve) => {
        const done = (decision: ApprovalDecision | null) => {
          run.questions.delete(approval.id);
          signal.removeEventListener('abort', onAbort);
          resolve(decision);
        };
        const onAbort = () => done(null);
        if (signal.aborted) return resolve(null);
        signal.addEventListener('abort', onAbort, { once: true });
        run.questions.set(approval.id, { approval, answer: done });
        wakeAll(run);
      });
  }

  private async wait(run: HeldRun, extra: ToolCallExtra): Promise<RunAnswer> {
    if (run.result === undefined && run.failure === undefined && run.questions.size === 0) {
      // The client gave up on the call it is waiting on: the run goes with it.
      const onAbort = () => run.abort.abort();
      extra.signal.addEventListener('abort', onAbort, { once: true });
      const stopProgress = reportProgress(this.options.runs.events, run.id, extra, this.options.log, progressValues(), () => this.options.runs.pendingApproval(run.id));
      let waker: (() => void) | undefined;
      try {
        await new Promise<void>((resolve) => {
          waker = resolve;
          run.wakers.add(resolve);
          if (extra.signal.aborted) onAbort();
        });
      } finally {
        if (waker) run.wakers.delete(waker);
        stopProgress();
        extra.signal.removeEventListener('abort', onAbort);
      }
    }
    if (run.failure !== undefined) {
      this.forget(run);
      throw run.failure;
    }
    if (run.result !== undefined) {
      this.forget(run);
      return run.shape(run.result);
    }
    const questions = [...run.questions.values()];
    return inputRequired({
      inputRequests: Object.fromEntries(questions.map((q) => [q.approval.id, inputRequired.elicit(approvalElicitation(q.approval))])),
      requestState: this.options.signer.mint({ run: run.id, questions: questions.map((q) => q.approval.id), args: run.args }, run.credential),
    });
  }
}
