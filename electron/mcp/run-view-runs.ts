// The runs the run view may ask about: every run_python call's run, with the caller that made it, a hash
// of its arguments (the View knows the call by them, not by a run id) and its output so far (a bounded
// tail). One per instance, across HTTP sessions and both MCP revisions; a finished run is kept a short
// while for a View that asks late, then forgotten.
import type { EngineEvent } from '../../shared/execution.js';
import type { RunViewStatus } from '../../shared/run-view.js';
import { OutputTail } from '../control/output-tail.js';
import type { Engine } from '../sandbox/engine.js';
import { argsHash } from './held-runs.js';

/** A finished run stays this long (a View polls every second or so; its result comes with the call anyway). */
export const KEEP_FINISHED_MS = 2 * 60_000;
/** Each poll carries at most this much of each stream (its end): the View polls about every second. */
export const STATUS_TAIL_CHARS = 64 * 1024;
/** At most this many runs are remembered; past it the oldest finished ones go first. */
export const MAX_TRACKED_RUNS = 500;

interface Tracked {
  id: string;
  credential: string;
  args: string;
  at: number;
  state: 'queued' | 'running' | 'finished';
  tail: OutputTail;
  forgetTimer?: NodeJS.Timeout;
}

export class RunViewRuns {
  private readonly runs = new Map<string, Tracked>();
  private off: (() => void) | undefined;
  private seq = 0;

  constructor(private readonly engine: Pick<Engine, 'subscribe' | 'snapshot'>) {}

  /** A run_python call's run was submitted: remember who made it and with what. */
  track(runId: string, credential: string, args: Record<string, unknown> | undefined): void {
    this.off ??= this.engine.subscribe((event) => this.onEvent(event));
    const running = this.engine.snapshot().running.some((r) => r.id === runId && r.startedAt !== null);
    // `seq` orders runs tracked in the same millisecond: the newest one wins a lookup by arguments.
    this.runs.set(runId, { id: runId, credential, args: argsHash(args), at: ++this.seq, state: running ? 'running' : 'queued', tail: new OutputTail() });
    this.bound();
  }

  /** The caller's run by id, or its newest run with these arguments; never another caller's. */
  find(credential: string, by: { runId?: string; arguments?: Record<string, unknown> }): Tracked | undefined {
    if (by.runId !== undefined) {
      const run = this.runs.get(by.runId);
      return run?.credential === credential ? run : undefined;
    }
    if (!by.arguments) return undefined;
    const hash = argsHash(by.arguments);
    let newest: Tracked | undefined;
    for (const run of this.runs.values()) {
      if (run.credential === credential && run.args === hash && (!newest || run.at > newest.at)) newest = run;
    }
    return newest;
  }

  status(run: Tracked | undefined): Omit<RunViewStatus, 'questions'> {
    if (!run) return { state: 'unknown', stdout: '', stderr: '', clipped: false };
    const end = (text: string) => (text.length > STATUS_TAIL_CHARS ? text.slice(text.length - STATUS_TAIL_CHARS) : text);
    const { stdout, stderr } = run.tail;
    const cut = stdout.length > STATUS_TAIL_CHARS || stderr.length > STATUS_TAIL_CHARS;
    return { state: run.state, runId: run.id, stdout: end(stdout), stderr: end(stderr), clipped: run.tail.clipped || cut };
  }

  get size(): number {
    return this.runs.size;
  }

  dispose(): void {
    this.off?.();
    this.off = undefined;
    for (const run of this.runs.values()) clearTimeout(run.forgetTimer);
    this.runs.clear();
  }

  private onEvent(event: EngineEvent): void {
    if (event.type === 'started') {
      const run = this.runs.get(event.id);
      if (run && run.state === 'queued') run.state = 'running';
    } else if (event.type === 'output') {
      this.runs.get(event.id)?.tail.append(event.stream, event.data);
    } else if (event.type === 'finished') {
      const run = this.runs.get(event.result.id);
      if (!run) return;
      run.state = 'finished';
      run.forgetTimer = setTimeout(() => this.forget(run), KEEP_FINISHED_MS);
      run.forgetTimer.unref();
    }
  }

  private forget(run: Tracked): void {
    clearTimeout(run.forgetTimer);
    if (this.runs.get(run.id) === run) this.runs.delete(run.id);
  }

  /** Finished runs go first, oldest first; a live run is dropped only when every remembered run is live. */
  private bound(): void {
    if (this.runs.size <= MAX_TRACKED_RUNS) return;
    const order = [...this.runs.values()].sort((a, b) => Number(a.state !== 'finished') - Number(b.state !== 'finished') || a.at - b.at);
    for (const run of order.slice(0, this.runs.size - MAX_TRACKED_RUNS)) this.forget(run);
  }
}
