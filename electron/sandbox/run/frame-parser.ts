// Splits the agent's stdout into frames. Anything that is not a well-formed frame is returned as text,
// so a hostile or broken sandbox can only produce output, never crash or confuse the host.
import { StringDecoder } from 'node:string_decoder';
import type { Stream } from '../../../shared/execution.js';
import { codeLineNumber } from './code-line.js';

/** Every frame but output carries `bytes`, its line's length: each kind has a per-run budget (frame-budget.ts). */
export type AgentFrame =
  | { type: 'ready'; python: string; bytes: number }
  | { type: 'output'; stream: Stream; data: string }
  /**
   * `bytes`: the frame's length, which the host's in-flight budget counts. `line`: the number of the user's
   * line that made the call, as the sandbox says (the host takes its text from its own copy of the code).
   */
  | { type: 'rpc_request'; id: number; payload: Record<string, unknown>; bytes: number; line?: number }
  /**
   * `session`: in a session, whether the sandbox waits for the next call (`open`) or the code ended it (`ended`).
   * From the relay when the code's process did not say goodbye: `abrupt` names how it ended (a signal such
   * as `SIGSEGV`, or `exit` for os._exit()), `stopped` the stream it went on printing past the cap.
   */
  | { type: 'exit'; code: number; session?: 'open' | 'ended'; abrupt?: string; stopped?: Stream; checkpoint?: CheckpointReport }
  /** A figure or displayed image, and a chunk of a /workspace/out file: checked field by field by ArtifactCollector. */
  | { type: 'display'; frame: Json; bytes: number }
  | { type: 'file'; frame: Json; bytes: number }
  /** Before `ready`, from a pooled agent: the modules it imported ahead of the code, and those that failed. */
  | { type: 'preload'; loaded: string[]; failed: { module: string; error: string }[]; bytes: number }
  /** At the end of a run: which of the start frame's `watchImports` the code imported. */
  | { type: 'imports'; modules: string[]; bytes: number }
  /** A stream the sandbox cut at the output cap, and how many bytes the code printed on it so far. */
  | { type: 'output_cut'; stream: Stream; printed: number; bytes: number }
  /** A connection's frame through the host's egress proxy (egress_open/data/end/close): checked by EgressTunnel. */
  | { type: 'egress'; frame: Json; bytes: number }
  /** A line that was not a valid frame: shown to the user as stderr text, as the reference did. */
  | { type: 'invalid'; text: string };

type Json = Record<string, unknown>;

/** The start frame's `checkpoint`: this call's number, how many checkpoints to keep, the call to return to. */
export interface CheckpointPlan {
  call: number;
  keep: number;
  restoreTo: number | null;
}

/** What the agent said of its checkpoints at a session call's end (untrusted: the registry keeps only what it expects). */
export interface CheckpointReport {
  /** The call whose checkpoint was made now, or null when none was (sessionCheckpoints 0, or it failed). */
  made: number | null;
  /** Calls whose checkpoints the agent dropped (memory short, or taken by the OOM killer), oldest first. */
  dropped: number[];
  /** User threads were running when the checkpoint was taken (they do not survive a return to it). */
  threads: boolean;
  /** The sandbox cannot keep checkpoints at all (under gVisor the agent cannot adopt them). */
  unavailable?: true;
}

const callNumber = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

function checkpointReport(value: unknown): { checkpoint: CheckpointReport } | Record<string, never> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const { made, dropped, threads, unavailable } = value as Json;
  return {
    checkpoint: {
      made: callNumber(made) ? made : null,
      dropped: Array.isArray(dropped) ? dropped.filter(callNumber).slice(0, 100) : [],
      threads: threads === true,
      ...(unavailable === true ? { unavailable: true as const } : {}),
    },
  };
}

/** A signal name, or `exit`: how the relay saw the code's process end. */
const ABRUPT_RE = /^(exit|SIG[A-Z0-9]{1,10})$/;
const isStream = (v: unknown): v is Stream => v === 'stdout' || v === 'stderr';

export function interpretFrame(line: string): AgentFrame {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { type: 'invalid', text: `${line}\n` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { type: 'invalid', text: `${line}\n` };
  const frame = value as Json;
  switch (frame.type) {
    case 'stdout':
    case 'stderr':
      if (typeof frame.data === 'string') return { type: 'output', stream: frame.type, data: frame.data };
      break;
    case 'rpc_request':
      if (Number.isSafeInteger(frame.id) && frame.payload && typeof frame.payload === 'object' && !Array.isArray(frame.payload)) {
        const where = codeLineNumber(frame.where);
        return { type: 'rpc_request', id: frame.id as number, payload: frame.payload as Json, bytes: line.length, ...(where ? { line: where } : {}) };
      }
      break;
    case 'exit':
      if (Number.isSafeInteger(frame.code)) {
        const session = frame.session === 'open' || frame.session === 'ended' ? { session: frame.session as 'open' | 'ended' } : {};
        const abrupt = typeof frame.abrupt === 'string' && ABRUPT_RE.test(frame.abrupt) ? { abrupt: frame.abrupt } : {};
        const stopped = isStream(frame.stopped) ? { stopped: frame.stopped } : {};
        return { type: 'exit', code: frame.code as number, ...session, ...abrupt, ...stopped, ...checkpointReport(frame.checkpoint) };
      }
      break;
    // Whatever their fields, these never become output: a forged one is refused as an artifact, not
    // printed (megabytes of base64 on stderr would end the run at the output cap).
    case 'display':
    case 'file':
      return { type: frame.type, frame, bytes: line.length };
    case 'output_cut':
      if (isStream(frame.stream) && Number.isSafeInteger(frame.printed) && (frame.printed as number) >= 0) {
        return { type: 'output_cut', stream: frame.stream, printed: frame.printed as number, bytes: line.length };
      }
      break;
    case 'preload': {
      const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
      const failed = (Array.isArray(frame.failed) ? frame.failed : [])
        .filter((f): f is Json => !!f && typeof f === 'object' && typeof (f as Json).module === 'string')
        .map((f) => ({ module: String(f.module).slice(0, 200), error: String(f.error ?? '').slice(0, 500) }));
      return { type: 'preload', loaded: strings(frame.loaded).slice(0, 256), failed: failed.slice(0, 256), bytes: line.length };
    }
    case 'imports':
      if (Array.isArray(frame.modules)) {
        return { type: 'imports', modules: frame.modules.filter((m): m is string => typeof m === 'string').slice(0, 64), bytes: line.length };
      }
      break;
    // Never output either: a forged one ends at the tunnel's checks or its frame budget.
    case 'egress_open':
    case 'egress_data':
    case 'egress_end':
    case 'egress_close':
      return { type: 'egress', frame, bytes: line.length };
    case 'ready':
      return { type: 'ready', python: typeof frame.python === 'string' ? frame.python.slice(0, 64) : '', bytes: line.length };
  }
  return { type: 'invalid', text: `${line}\n` };
}

/**
 * Incremental line splitter with a bound: a line longer than `maxLineBytes` is cut and passed on as
 * invalid text in pieces, so memory stays bounded whatever arrives.
 */
export class FrameParser {
  private readonly decoder = new StringDecoder('utf8');
  /** The current line's pieces so far (no newline among them), joined once when the line ends. */
  private parts: string[] = [];
  private partsLength = 0;

  constructor(private readonly maxLineBytes: number) {}

  push(chunk: Buffer | string): AgentFrame[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const frames: AgentFrame[] = [];
    // Only the new text is searched, and a long line is joined once: appending to one growing string
    // flattened it on every chunk, 64 copies of up to 4 MiB per 4 MiB frame.
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      this.takeLine(this.takePending(text.slice(start, nl)), frames, '\n');
      start = nl + 1;
    }
    if (start < text.length) {
      const rest = text.slice(start);
      this.parts.push(rest);
      this.partsLength += rest.length;
    }
    // Characters, not bytes, but a UTF-8 character is at most 4 bytes and at least one: close enough
    // for a memory bound, and exact for the ASCII-escaped frames the agent usually writes.
    if (this.partsLength > this.maxLineBytes) {
      frames.push({ type: 'invalid', text: this.takePending('') });
      this.inOverlongLine = true;
    }
    return frames;
  }

  private takePending(tail: string): string {
    if (this.parts.length === 0) return tail;
    this.parts.push(tail);
    const line = this.parts.join('');
    this.parts = [];
    this.partsLength = 0;
    return line;
  }

  /** Whatever is left when the stream ends: a final line without its newline. */
  end(): AgentFrame[] {
    const rest = this.takePending(this.decoder.end());
    const frames: AgentFrame[] = [];
    if (rest.length > 0) this.takeLine(rest, frames, '');
    return frames;
  }

  private inOverlongLine = false;

  private takeLine(raw: string, frames: AgentFrame[], ending: string): void {
    // The tail of a line already passed on in pieces is text too, and keeps its line break.
    if (this.inOverlongLine) {
      this.inOverlongLine = false;
      frames.push({ type: 'invalid', text: raw + ending });
      return;
    }
    const line = raw.replace(/\r$/, '');
    if (line.trim().length > 0) frames.push(interpretFrame(line));
  }
}
