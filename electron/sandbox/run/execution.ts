// Drives one execution inside one claimed container: hands over the code, relays frames and host calls,
// enforces the timeout, the output cap and every frame kind's budget, and reports how it ended.
import type { Artifact, RefusedArtifact } from '../../../shared/artifacts.js';
import type { ExitReason, Stream } from '../../../shared/execution.js';
import type { EgressRecord } from '../../../shared/egress-audit.js';
import { ArtifactCollector, DEFAULT_ARTIFACT_CAPS, type ArtifactCaps } from './artifact-collector.js';
import type { ProcessExit } from './attached-process.js';
import { codeLineText, sourceLines } from './code-line.js';
import { classifyExit, OUTPUT_STOP_FACTOR, type HostStop } from './exit-classifier.js';
import { FrameBudget, frameBudgets, type BudgetedKind } from './frame-budget.js';
import type { AgentFrame, CheckpointPlan, CheckpointReport } from './frame-parser.js';
import { HoldClock } from './hold-clock.js';
import { EgressTunnel, type RunEgress } from './egress-tunnel.js';
import { HostCalls, type RpcHandler } from './host-calls.js';
import { RunFreezer, type FreezeOp } from './run-freezer.js';
import { OutputCapture } from './output-capture.js';
import { DEFAULT_RPC_LIMITS } from './rpc-gate.js';
import type { SandboxContainer } from './sandbox-container.js';

export { ToolCallDeniedError, type RpcHandler } from './host-calls.js';

export interface RunSpec {
  executionId: string;
  code: string;
  context: Record<string, unknown>;
  timeoutSec: number;
  /** Held time that stops the clock, in all (settings approvalTimeoutSec; DEFAULT_MAX_HELD_MS when absent). */
  maxHeldMs?: number;
  /** Pauses or resumes this run's container (its backend's pause); absent: holds never freeze it. */
  freeze?: FreezeOp;
  outputCapBytes: number;
  memory: string;
  signal?: AbortSignal;
  rpc?: RpcHandler;
  /** Host calls in flight at once (default 16); the byte budget is DEFAULT_RPC_LIMITS.maxBytes. */
  maxRpcInFlight?: number;
  onOutput?: (stream: Stream, data: string) => void;
  /** Modules whose import by the code the agent reports at the end (the default preloads). */
  watchImports?: readonly string[];
  /** Figures, displays and out/ files: the agent is told them, and the host enforces them. */
  artifactCaps?: ArtifactCaps;
  /** Kills the container by name; the runtime client alone cannot stop it. */
  kill: (container: SandboxContainer) => Promise<void>;
  /** A session's call: the agent keeps its interpreter afterwards and waits for the next `start`. */
  session?: boolean;
  /** A session's call: its number, checkpoints kept, the one to return to first (agent_checkpoints.py). */
  checkpoint?: CheckpointPlan;
  /** Egress through the host for this run (settings `egress` allow non-empty); absent: the sandbox has no way out. */
  egress?: RunEgress;
}

export interface RunOutcome {
  exitReason: ExitReason;
  exitCode: number | null;
  message?: string;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  stdoutPrinted?: number;
  stderrPrinted?: number;
  startedAt: number;
  finishedAt: number;
  artifacts?: Artifact[];
  refusedArtifacts?: RefusedArtifact[];
  /** Of `watchImports`, those the code imported (the sandbox's word: it only steers preloading). */
  importedModules?: string[];
  /** A session's call: `open` when the sandbox waits for the next call, `ended` when the code ended it. */
  session?: 'open' | 'ended';
  /** A session's call that left it open: what the agent said of its checkpoints. */
  checkpoint?: CheckpointReport;
  /** With egress on: the run's connections (at most MAX_EGRESS_RECORDS) and how many more there were. */
  egress?: EgressRecord[];
  egressDropped?: number;
}

/** Host frames for the sandbox's egress wait once this much is queued in its input (the upstream slows down instead). */
const EGRESS_BACKLOG_BYTES = 1024 * 1024;

/** After a kill, how long to wait for the runtime to confirm the container is gone. */
const KILL_CONFIRM_MS = 1500;
/** The settings' default approvalTimeoutSec. */
export const DEFAULT_MAX_HELD_MS = 120_000;

export function runInContainer(container: SandboxContainer, spec: RunSpec): Promise<RunOutcome> {
  const out = { stdout: new OutputCapture('stdout', spec.outputCapBytes), stderr: new OutputCapture('stderr', spec.outputCapBytes) };
  const rpcAbort = new AbortController();
  const rpcLimits = { ...DEFAULT_RPC_LIMITS, ...(spec.maxRpcInFlight ? { maxInFlight: spec.maxRpcInFlight } : {}) };
  const artifactCaps = spec.artifactCaps ?? DEFAULT_ARTIFACT_CAPS;
  const artifacts = new ArtifactCollector(artifactCaps);
  const budget = new FrameBudget(frameBudgets(artifactCaps));
  let hostStop: HostStop | undefined;
  let exitFrame: Extract<AgentFrame, { type: 'exit' }> | undefined;
  let importedModules: string[] | undefined;
  let sessionState: 'open' | 'ended' | undefined;
  let settled = false;
  let startedAt = 0;

  return new Promise<RunOutcome>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let capTimer: NodeJS.Timeout | undefined;
    // The clock stops while any host call holds it (waiting for an approval), within the hold budget; the
    // wall-clock cap (timeout + budget) is a timer of its own that no hold moves.
    const clock = new HoldClock(spec.timeoutSec * 1000, spec.maxHeldMs ?? DEFAULT_MAX_HELD_MS);
    const freezer = new RunFreezer(spec.freeze);
    let inFlight = 0;
    let holds = 0;
    const frozenWanted = () => freezer.set(holds > 0 && holds >= inFlight);

    const finish = (processExit?: ProcessExit) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(capTimer);
      // Nothing is frozen after the end (a session's sandbox is the session's to pause from here on).
      void freezer.release();
      spec.signal?.removeEventListener('abort', onAbort);
      rpcAbort.abort();
      calls.close();
      // Every connection of this run ends with it (a session's later call gets a proxy of its own).
      tunnel?.close();
      container.release();
      const end = classifyExit({
        ...(hostStop ? { hostStop } : {}),
        ...(exitFrame ? { exitFrameCode: exitFrame.code } : {}),
        ...(exitFrame?.abrupt ? { abrupt: exitFrame.abrupt } : {}),
        ...(exitFrame?.stopped ? { stoppedStream: exitFrame.stopped } : {}),
        ...(processExit ? { processExit } : {}),
        timeoutSec: spec.timeoutSec,
        memory: spec.memory,
        outputCapBytes: spec.outputCapBytes,
      });
      const heldSec = Math.round(clock.creditedMs() / 1000);
      // The sandbox's count of what was printed is whole when the run ended by itself.
      const whole = !hostStop && exitFrame !== undefined && !exitFrame.stopped;
      const printed = (['stdout', 'stderr'] as const).flatMap((s) => (out[s].printed !== undefined ? [[`${s}Printed`, out[s].printed]] : []));
      const outcome: RunOutcome = {
        ...end,
        // The timeout counts the code's time: say how long the run also waited for answers.
        ...(end.exitReason === 'timeout' && heldSec > 0 ? { message: `${end.message} (plus ${heldSec}s waiting for approval answers)` } : {}),
        stdout: out.stdout.text(whole),
        stderr: out.stderr.text(whole),
        stdoutTruncated: out.stdout.wasCut,
        stderrTruncated: out.stderr.wasCut,
        ...(Object.fromEntries(printed) as Pick<RunOutcome, 'stdoutPrinted' | 'stderrPrinted'>),
        startedAt,
        finishedAt: Date.now(),
        // What arrived before the end is kept, also when the run was stopped (a figure shown before a timeout).
        ...artifacts.result(),
        ...(importedModules ? { importedModules } : {}),
        ...(spec.session && sessionState && !hostStop && !processExit ? { session: sessionState } : {}),
        ...(spec.session && sessionState === 'open' && !hostStop && !processExit && exitFrame?.checkpoint ? { checkpoint: exitFrame.checkpoint } : {}),
      };
      // Connections still open were closed above; their records are made as their sockets close (next tick).
      const egress = spec.egress;
      if (egress) setImmediate(() => resolve({ ...outcome, ...egress.records() }));
      else resolve(outcome);
    };

    const stop = (why: HostStop) => {
      if (settled || hostStop) return;
      hostStop = why;
      clearTimeout(timer);
      clearTimeout(capTimer);
      // A frozen container is thawed first: some runtimes refuse to kill a paused one.
      void freezer.release().then(() => {
        const confirmed = Promise.race([container.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), KILL_CONFIRM_MS))]);
        void spec.kill(container).catch(() => {});
        void confirmed.then((exit) => finish(exit));
      });
    };

    const onAbort = () => stop({ reason: 'cancelled' });
    const abuse = (what: string) => stop({ reason: 'protocol_abuse', what });
    /** Counts a frame against its kind's budget; false (and the run ends) once past it. */
    const within = (kind: BudgetedKind, bytes: number): boolean => {
      if (settled || hostStop) return false;
      const over = budget.charge(kind, bytes);
      if (over) abuse(over);
      return !over;
    };

    const deadline = () => clock.deadline();
    const armTimer = () => {
      clearTimeout(timer);
      if (!settled && !hostStop) timer = setTimeout(() => stop({ reason: 'timeout' }), Math.max(0, deadline() - Date.now()));
    };
    const holdClock = () => {
      const release = clock.hold();
      holds++;
      armTimer();
      frozenWanted();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds--;
        release();
        armTimer();
        frozenWanted();
      };
    };

    const emit = (stream: Stream, data: string) => {
      if (hostStop) return;
      const kept = out[stream].append(data);
      if (kept) spec.onOutput?.(stream, kept);
      if (out[stream].truncated) stop({ reason: 'output_limit', stream });
    };

    const calls = new HostCalls({
      container,
      executionId: spec.executionId,
      limits: rpcLimits,
      rpc: spec.rpc,
      signal: rpcAbort.signal,
      deadline,
      holdClock,
      over: () => settled || hostStop !== undefined,
      abuse,
      // A call in flight that is not held means the code is not just waiting: it must not be frozen.
      busy: (delta) => {
        inFlight += delta;
        frozenWanted();
      },
    });

    // The sandbox's connections through the host: each becomes a stream to the run's egress proxy.
    const tunnel = spec.egress
      ? new EgressTunnel(spec.egress.gateway, (frame) => {
          if (settled) return;
          const sent = container.send(frame);
          return sent.backlog > EGRESS_BACKLOG_BYTES ? sent.written : undefined;
        }, spec.egress.limits)
      : undefined;

    // The run's code by line, split on the first call that names one: the text of a call's line comes from here.
    let lines: string[] | undefined;
    const onFrame = (frame: AgentFrame) => {
      switch (frame.type) {
        case 'output':
          emit(frame.stream, frame.data);
          break;
        case 'invalid':
          emit('stderr', frame.text);
          break;
        case 'rpc_request':
          calls.submit(frame.id, frame.payload, frame.bytes, codeLineText((lines ??= sourceLines(spec.code)), frame.line));
          break;
        case 'display':
          if (within('display', frame.bytes)) artifacts.addDisplay(frame.frame);
          break;
        case 'file':
          if (within('file', frame.bytes)) artifacts.addFile(frame.frame);
          break;
        case 'output_cut':
          if (within('output_cut', frame.bytes)) out[frame.stream].markCut(frame.printed);
          break;
        case 'exit':
          exitFrame = frame;
          sessionState = frame.session;
          finish();
          break;
        case 'imports':
          if (within('imports', frame.bytes)) importedModules = frame.modules.filter((m) => spec.watchImports?.includes(m));
          break;
        case 'egress': {
          // Without egress the frame is only counted: a sandbox that keeps sending them ends as abuse.
          if (!tunnel) within('other', frame.bytes);
          const wrong = !settled && !hostStop ? tunnel?.receive(frame.frame) : null;
          if (wrong) abuse(wrong);
          break;
        }
        case 'ready':
        case 'preload':
          within('other', frame.bytes);
          break;
      }
    };

    container.claim({ onFrame, onStderr: (text) => emit('stderr', text) });
    void container.exited.then((exit) => {
      if (!hostStop) finish(exit);
    });

    if (spec.signal?.aborted) {
      stop({ reason: 'cancelled' });
      return;
    }
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    startedAt = Date.now();
    clock.start();
    // The agent keeps its calls within the same bounds the host enforces (see RpcGate), and its output too:
    // past the cap it counts rather than sends, and past OUTPUT_STOP_FACTOR times the cap it stops the run.
    void calls.send(JSON.stringify({
      type: 'start',
      code: spec.code,
      context: spec.context,
      rpcLimits: [rpcLimits.maxInFlight, rpcLimits.maxBytes],
      output: { capBytes: spec.outputCapBytes, stopAfterBytes: OUTPUT_STOP_FACTOR * spec.outputCapBytes },
      artifacts: artifactCaps,
      ...(spec.watchImports ? { watchImports: spec.watchImports } : {}),
      ...(spec.session ? { session: true } : {}),
      ...(spec.checkpoint ? { checkpoint: spec.checkpoint } : {}),
      ...(spec.egress ? { egress: spec.egress.agent } : {}),
    }));
    // The timeout counts from hand-over: pulls and container start-up are not the code's time.
    timer = setTimeout(() => stop({ reason: 'timeout' }), spec.timeoutSec * 1000);
    capTimer = setTimeout(() => stop({ reason: 'timeout' }), clock.wallCap() - Date.now());
  });
}
