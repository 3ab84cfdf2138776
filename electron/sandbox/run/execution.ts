// Drives one execution inside one claimed container: hands over the code, relays frames and RPCs,
// enforces the timeout and the output cap, and reports how it ended.
import type { Artifact, RefusedArtifact } from '../../../shared/artifacts.js';
import type { ExitReason, Stream } from '../../../shared/execution.js';
import { errorMessage } from '../../../shared/errors.js';
import { ArtifactCollector, DEFAULT_ARTIFACT_CAPS, type ArtifactCaps } from './artifact-collector.js';
import type { ProcessExit } from './attached-process.js';
import { codeLineText, sourceLines } from './code-line.js';
import { classifyExit, type HostStop } from './exit-classifier.js';
import type { AgentFrame } from './frame-parser.js';
import { HoldClock } from './hold-clock.js';
import { RunFreezer, type FreezeOp } from './run-freezer.js';
import { OutputCapture } from './output-capture.js';
import { DEFAULT_RPC_LIMITS, RpcGate, type RpcGateLimits } from './rpc-gate.js';
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
}

export interface RunOutcome {
  exitReason: ExitReason;
  exitCode: number | null;
  message?: string;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  startedAt: number;
  finishedAt: number;
  artifacts?: Artifact[];
  refusedArtifacts?: RefusedArtifact[];
  /** Of `watchImports`, those the code imported (the sandbox's word: it only steers preloading). */
  importedModules?: string[];
  /** A session's call: `open` when the sandbox waits for the next call, `ended` when the code ended it. */
  session?: 'open' | 'ended';
}

function refusedCall(limits: RpcGateLimits): string {
  return `Refused: this run already has too many host calls waiting (at most ${limits.maxInFlight} calls or ${limits.maxBytes / 1024 / 1024} MiB in flight); the sandbox's runtime keeps within that unless it is bypassed.`;
}

/** After a kill, how long to wait for the runtime to confirm the container is gone. */
const KILL_CONFIRM_MS = 1500;
/** The settings' default approvalTimeoutSec. */
export const DEFAULT_MAX_HELD_MS = 120_000;

export function runInContainer(container: SandboxContainer, spec: RunSpec): Promise<RunOutcome> {
  const out = { stdout: new OutputCapture('stdout', spec.outputCapBytes), stderr: new OutputCapture('stderr', spec.outputCapBytes) };
  const rpcAbort = new AbortController();
  const rpcLimits = { ...DEFAULT_RPC_LIMITS, ...(spec.maxRpcInFlight ? { maxInFlight: spec.maxRpcInFlight } : {}) };
  const gate = new RpcGate(rpcLimits);
  const artifactCaps = spec.artifactCaps ?? DEFAULT_ARTIFACT_CAPS;
  const artifacts = new ArtifactCollector(artifactCaps);
  let hostStop: HostStop | undefined;
  let exitFrameCode: number | undefined;
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
      gate.close();
      container.release();
      const end = classifyExit({
        ...(hostStop ? { hostStop } : {}),
        ...(exitFrameCode !== undefined ? { exitFrameCode } : {}),
        ...(processExit ? { processExit } : {}),
        timeoutSec: spec.timeoutSec,
        memory: spec.memory,
        outputCapBytes: spec.outputCapBytes,
      });
      const heldSec = Math.round(clock.creditedMs() / 1000);
      resolve({
        ...end,
        // The timeout counts the code's time: say how long the run also waited for answers.
        ...(end.exitReason === 'timeout' && heldSec > 0 ? { message: `${end.message} (plus ${heldSec}s waiting for approval answers)` } : {}),
        stdout: out.stdout.text(),
        stderr: out.stderr.text(),
        stdoutTruncated: out.stdout.truncated,
        stderrTruncated: out.stderr.truncated,
        startedAt,
        finishedAt: Date.now(),
        // What arrived before the end is kept, also when the run was stopped (a figure shown before a timeout).
        ...artifacts.result(),
        ...(importedModules ? { importedModules } : {}),
        ...(spec.session && sessionState && !hostStop && !processExit ? { session: sessionState } : {}),
      });
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

    // Resolves once the answer is in the pipe: until then it counts against the run's in-flight budget.
    const answer = async (id: number, payload: Record<string, unknown>, codeLine: string | undefined, hold: (bytes: number) => void) => {
      let response: Record<string, unknown>;
      if (!spec.rpc) {
        response = { type: 'rpc_response', id, success: false, error: 'This sandbox has no host calls configured' };
      } else {
        // A call in flight that is not held means the code is not just waiting: it must not be frozen.
        inFlight++;
        frozenWanted();
        try {
          const ctx = { executionId: spec.executionId, signal: rpcAbort.signal, get deadline() { return deadline(); }, hold: holdClock, ...(codeLine ? { codeLine } : {}) };
          const result = await spec.rpc(payload, ctx);
          response = { type: 'rpc_response', id, success: true, payload: result ?? null };
        } catch (err) {
          // `denied`: the agent raises ToolCallDenied, a subclass of MCPError, for it.
          response = { type: 'rpc_response', id, success: false, error: errorMessage(err), ...(isDenied(err) ? { kind: 'denied' } : {}) };
        } finally {
          inFlight--;
          frozenWanted();
        }
      }
      if (settled) return;
      const { bytes, written } = container.send(response);
      hold(bytes);
      await written;
    };

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
        case 'rpc_request': {
          // Served concurrently (a slow host call never blocks output or other calls), within the gate's bounds.
          const { id, payload } = frame;
          const codeLine = codeLineText((lines ??= sourceLines(spec.code)), frame.line);
          if (!gate.submit(frame.bytes, (hold) => answer(id, payload, codeLine, hold)) && !settled) {
            container.send({ type: 'rpc_response', id, success: false, error: refusedCall(rpcLimits) });
          }
          break;
        }
        case 'display':
          if (!settled && !hostStop) artifacts.addDisplay(frame.frame);
          break;
        case 'file':
          if (!settled && !hostStop) artifacts.addFile(frame.frame);
          break;
        case 'exit':
          exitFrameCode = frame.code;
          sessionState = frame.session;
          finish();
          break;
        case 'imports':
          importedModules = frame.modules.filter((m) => spec.watchImports?.includes(m));
          break;
        case 'ready':
        case 'preload':
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
    // The agent keeps its calls within the same bounds the host enforces (see RpcGate).
    container.send({
      type: 'start',
      code: spec.code,
      context: spec.context,
      rpcLimits: [rpcLimits.maxInFlight, rpcLimits.maxBytes],
      artifacts: artifactCaps,
      ...(spec.watchImports ? { watchImports: spec.watchImports } : {}),
      ...(spec.session ? { session: true } : {}),
    });
    // The timeout counts from hand-over: pulls and container start-up are not the code's time.
    timer = setTimeout(() => stop({ reason: 'timeout' }), spec.timeoutSec * 1000);
    capTimer = setTimeout(() => stop({ reason: 'timeout' }), clock.wallCap() - Date.now());
  });
}

/** A tool call refused by policy, by a person, or by the approval deadline. */
export class ToolCallDeniedError extends Error {
  readonly denied = true;
}

const isDenied = (err: unknown): boolean => err instanceof ToolCallDeniedError;
