// Runs the real in-container agent on the host (`python3 -c BOOTSTRAP_SOURCE`) and speaks its frame protocol:
// the harness the agent suites share (boot it, run code, collect its frames).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { BOOTSTRAP_SOURCE, buildBootLine, type BootPayload } from '../../../electron/sandbox/agent/bootstrap.js';

export type Frame = { type: string } & Record<string, unknown>;
export type BootOptions = Partial<Omit<BootPayload, 'agent'>>;

// Python start-up alone is ~0.4 s on a quiet CI machine but several seconds on a loaded one, so waits are
// generous; the timing assertions below use margins far below the delays they guard against.
export const WAIT_MS = 15_000;
export const SUITE = { timeout: 40_000 };

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One agent process: collects every frame, can wait for particular ones, and can send frames back. */
export class Agent {
  readonly frames: Frame[] = [];
  rawStderr = '';
  readonly exited: Promise<Exited>;
  onFrame: (frame: Frame, agent: Agent) => void = () => {};
  private readonly child: ChildProcessWithoutNullStreams;
  private pending = '';
  private waiters: (() => void)[] = [];

  constructor(boot: BootOptions = {}) {
    this.child = spawn('python3', ['-c', BOOTSTRAP_SOURCE], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.onData(chunk));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => (this.rawStderr += chunk));
    this.child.stdin.on('error', () => {}); // the agent may be gone by the time we write
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this.notify();
        resolve({ code, signal });
      });
    });
    this.child.stdin.write(buildBootLine(boot));
  }

  send(frame: object): void {
    this.child.stdin.write(`${JSON.stringify(frame)}\n`);
  }

  /** Raw text on the agent's stdin, for lines that are not frames. */
  writeRaw(text: string): void {
    this.child.stdin.write(text);
  }

  closeStdin(): void {
    this.child.stdin.end();
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  /** Resolves with the first frame matching `predicate` (already received or still to come). */
  async waitFor(predicate: (frame: Frame) => boolean, timeoutMs = WAIT_MS): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(predicate);
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null || Date.now() > deadline) {
        throw new Error(`frame not seen; got ${JSON.stringify(this.frames).slice(0, 500)} stderr=${this.rawStderr}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  stream(type: 'stdout' | 'stderr'): string {
    return this.frames.filter((f) => f.type === type).map((f) => f.data as string).join('');
  }

  private onData(chunk: string): void {
    this.pending += chunk;
    let newline: number;
    while ((newline = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, newline);
      this.pending = this.pending.slice(newline + 1);
      const frame = JSON.parse(line) as Frame; // every line the agent writes must be one JSON frame
      this.frames.push(frame);
      this.onFrame(frame, this);
    }
    this.notify();
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

export interface RunResult {
  stdout: string;
  stderr: string;
  frames: Frame[];
  exitFrames: Frame[];
  /** `code` of the exit frame. */
  code: unknown;
  process: Exited;
  rawStderr: string;
  elapsedMs: number;
}

export interface RunOptions {
  context?: Record<string, unknown>;
  /** More fields of the start frame (artifact caps, watchImports). */
  start?: Record<string, unknown>;
  boot?: BootOptions;
  onFrame?: (frame: Frame, agent: Agent) => void;
  timeoutMs?: number;
}

/** Boot an agent, run `code`, answer frames through `onFrame`, and collect everything until it exits. */
export async function run(code: string, options: RunOptions = {}): Promise<RunResult> {
  const agent = new Agent(options.boot);
  if (options.onFrame) agent.onFrame = options.onFrame;
  const timer = setTimeout(() => agent.kill(), options.timeoutMs ?? 2 * WAIT_MS);
  try {
    await agent.waitFor((f) => f.type === 'ready');
    const started = Date.now();
    agent.send({ type: 'start', code, context: options.context ?? {}, ...options.start });
    const processExit = await agent.exited;
    const exitFrames = agent.frames.filter((f) => f.type === 'exit');
    return {
      stdout: agent.stream('stdout'),
      stderr: agent.stream('stderr'),
      frames: agent.frames,
      exitFrames,
      code: exitFrames[0]?.code,
      process: processExit,
      rawStderr: agent.rawStderr,
      elapsedMs: Date.now() - started,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Host side of RPC for tests: answers every request with {echo: payload}. */
export function echoRpc(frame: Frame, agent: Agent): void {
  if (frame.type === 'rpc_request') {
    agent.send({ type: 'rpc_response', id: frame.id, success: true, payload: { echo: frame.payload } });
  }
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
