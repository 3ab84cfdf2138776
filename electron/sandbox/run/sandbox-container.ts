// One started container with the agent booted inside, waiting for its `start` frame: one, or one per call of
// the session that holds it.
import type { Writable } from 'node:stream';
import type { AttachedProcess, ProcessExit } from './attached-process.js';
import { FrameParser, type AgentFrame } from './frame-parser.js';

export interface ContainerListener {
  onFrame(frame: AgentFrame): void;
  /** The runtime's own stderr (podman messages, an interpreter crash before the agent took over). */
  onStderr(text: string): void;
}

const STDERR_TAIL_CHARS = 4096;

export class SandboxContainer {
  readonly exited: Promise<ProcessExit>;
  /** Resolves with the Python version once the agent says `ready`; rejects if the container dies first. */
  readonly ready: Promise<string>;
  private listener: ContainerListener | undefined;
  private stderrTail = '';
  private exitInfo: ProcessExit | undefined;
  private used = false;
  /** Held by a session: claimed again for each of its calls (the agent keeps its interpreter between them). */
  private session = false;
  /** What a pooled agent imported while it waited (setting `preload`); undefined until it says, or if not asked. */
  preload: Extract<AgentFrame, { type: 'preload' }> | undefined;
  /** Set at boot when the agent was given preloads; cleared when it reports them (or the container is taken). */
  preloading = false;
  private preloadListeners: (() => void)[] = [];

  constructor(
    readonly name: string,
    private readonly proc: AttachedProcess,
    bootLine: string,
    maxFrameBytes: number,
    readonly createdAt = Date.now(),
  ) {
    const parser = new FrameParser(maxFrameBytes * 2);
    let markReady: (python: string) => void = () => {};
    let failBoot: (err: Error) => void = () => {};
    this.ready = new Promise<string>((resolve, reject) => {
      markReady = resolve;
      failBoot = reject;
    });
    // Callers may never await `ready` (a pool entry drained before use): never an unhandled rejection.
    this.ready.catch(() => {});

    const deliver = (frames: AgentFrame[]) => {
      for (const frame of frames) {
        if (this.listener) this.listener.onFrame(frame);
        else if (frame.type === 'ready') markReady(frame.python);
        else if (frame.type === 'preload') this.preloadEnded(frame);
        // Before any run, output can only be the agent explaining why it could not boot.
        else if (frame.type === 'output' || frame.type === 'invalid') this.keepBootLog(frame.type === 'output' ? frame.data : frame.text);
      }
    };
    proc.stdout.on('data', (chunk: Buffer) => deliver(parser.push(chunk)));
    proc.stdout.on('end', () => deliver(parser.end()));
    proc.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (this.listener) this.listener.onStderr(text);
      else this.keepBootLog(text);
    });
    this.exited = proc.exited.then((exit) => {
      this.exitInfo = exit;
      this.preloadEnded(undefined);
      const why = exit.spawnError ?? (this.stderrTail.trim() || `the container exited with code ${exit.exitCode}`);
      failBoot(new Error(why));
      return exit;
    });
    proc.stdin.write(bootLine);
  }

  private keepBootLog(text: string): void {
    this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
  }

  get isAlive(): boolean {
    return this.exitInfo === undefined;
  }

  /** What the runtime printed before the agent took over; explains boot failures. */
  get bootLog(): string {
    return this.stderrTail;
  }

  /** Hand the container to one execution. A container is used once, ever, unless a session holds it. */
  claim(listener: ContainerListener): void {
    if (this.used && !this.session) throw new Error(`container ${this.name} was already used`);
    this.used = true;
    this.listener = listener;
    this.preloadEnded(undefined);
  }

  /** A session takes this container: each of its calls claims it in turn. Only before its first use. */
  holdForSession(): void {
    if (this.used) throw new Error(`container ${this.name} was already used`);
    this.session = true;
  }

  /** Between a session's calls: nothing reaches the last call's listener any more. */
  release(): void {
    if (this.session) this.listener = { onFrame: () => {}, onStderr: () => {} };
  }

  /** Called once when the preloads are reported (or will never be: taken by a run, or gone). */
  whenPreloaded(listener: () => void): void {
    if (this.preloading) this.preloadListeners.push(listener);
    else listener();
  }

  private preloadEnded(frame: Extract<AgentFrame, { type: 'preload' }> | undefined): void {
    if (frame) this.preload = frame;
    if (!this.preloading) return;
    this.preloading = false;
    for (const listener of this.preloadListeners.splice(0)) listener();
  }

  /**
   * Writes one frame. `written` resolves once the pipe has taken it (or the container is gone), so a caller
   * can count an answer as in flight until the sandbox could read it. `backlog`: what was still waiting in
   * the container's stdin before this write.
   */
  send(frame: Record<string, unknown>): { bytes: number; written: Promise<void>; backlog: number } {
    return this.sendJson(JSON.stringify(frame));
  }

  /** `send` for a frame already serialized (its size counted before it could be written). */
  sendJson(json: string): { bytes: number; written: Promise<void>; backlog: number } {
    if (!this.isAlive || this.proc.stdin.destroyed) return { bytes: 0, written: Promise.resolve(), backlog: 0 };
    const backlog = this.stdinBacklog;
    // Two writes, not `json + '\n'`: the concatenation would copy a multi-megabyte answer once more. Writes
    // queue in order, so nothing can come between them.
    this.proc.stdin.write(json);
    return { bytes: json.length + 1, backlog, written: new Promise((resolve) => this.proc.stdin.write('\n', () => resolve())) };
  }

  /** Bytes written to the container's stdin that it has not taken yet (a pass-through stream buffers on both sides). */
  get stdinBacklog(): number {
    const stdin = this.proc.stdin as Writable & { readableLength?: number };
    return stdin.writableLength + (stdin.readableLength ?? 0);
  }

  /** Resolves once at most `limit` bytes wait in the container's stdin, or it is gone: answers queue here, not there. */
  async roomFor(limit: number): Promise<void> {
    const stdin = this.proc.stdin;
    while (this.isAlive && !stdin.destroyed && this.stdinBacklog > limit) {
      await new Promise<void>((resolve) => {
        const done = () => {
          stdin.off('drain', done);
          stdin.off('close', done);
          clearTimeout(poll);
          resolve();
        };
        stdin.once('drain', done);
        stdin.once('close', done);
        // A pass-through stream drains from its readable side without a 'drain' event: look again now and then.
        const poll = setTimeout(done, 250);
      });
    }
  }


  /**
   * Lets an idle sandbox go: its agent exits when stdin closes before any work came, and the runtime
   * removes it (`--rm`) without a kill command of its own. Callers still kill it if it has not exited soon.
   */
  letGo(): void {
    if (!this.proc.stdin.destroyed) this.proc.stdin.end();
  }

  /** Kills the runtime client; the container itself must be killed by name (see ContainerRuntime). */
  detachClient(): void {
    this.proc.kill('SIGKILL');
  }
}
