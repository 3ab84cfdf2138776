// An in-process stand-in for the Python agent that speaks the real frame protocol over a fake attached
// process: it reads the boot line and answers `ready`, takes `start` frames, streams `stdout`/`stderr`,
// makes host calls with `rpc_request` and waits for their `rpc_response`, and ends with `exit`. Its "code" is
// a tiny script, one command a line, so a test says exactly what the sandbox does:
//   print TEXT | eprint TEXT | call SERVER TOOL {json} | servers | packages | set NAME VALUE | get NAME
//   wait (until the test's gate opens) | sleep MS | exit CODE | end (ends the session)
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import type { AttachedProcess, ProcessExit } from '../../../electron/sandbox/run/attached-process.js';

type Frame = Record<string, unknown>;

export interface FakeAgentOptions {
  /** Opened by the test for scripts that `wait`. */
  gate?: () => Promise<void>;
}

export class FakeAgentProcess implements AttachedProcess {
  readonly pid = undefined;
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly exited: Promise<ProcessExit>;
  /** Every `start` frame the agent got (tests read the context the host sent). */
  readonly starts: Frame[] = [];
  private exit!: (exit: ProcessExit) => void;
  private done = false;
  private booted = false;
  private nextId = 1;
  private readonly pending = new Map<number, (frame: Frame) => void>();
  /** What `set` keeps: a session's calls see it, as a real interpreter keeps its variables. */
  private readonly vars = new Map<string, string>();

  constructor(private readonly options: FakeAgentOptions = {}) {
    this.exited = new Promise((resolve) => (this.exit = resolve));
    createInterface({ input: this.stdin }).on('line', (line) => this.onLine(line));
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    this.end({ exitCode: 137, signal });
  }

  private end(exit: ProcessExit): void {
    if (this.done) return;
    this.done = true;
    this.stdout.end();
    this.stderr.end();
    this.exit(exit);
  }

  private send(frame: Frame): void {
    if (!this.done) this.stdout.write(`${JSON.stringify(frame)}\n`);
  }

  private onLine(line: string): void {
    const frame = JSON.parse(line) as Frame;
    if (!this.booted) {
      this.booted = true;
      this.send({ type: 'ready', python: 'fake 3.12' });
      return;
    }
    if (frame.type === 'start') void this.run(frame);
    if (frame.type === 'rpc_response') this.pending.get(frame.id as number)?.(frame);
  }

  private call(payload: Frame): Promise<Frame> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.send({ type: 'rpc_request', id, payload });
    });
  }

  private async run(start: Frame): Promise<void> {
    this.starts.push(start);
    const context = (start.context ?? {}) as { mcp?: { loaded?: { name: string }[] }; packages?: string };
    const out = (data: string) => this.send({ type: 'stdout', data: `${data}\n` });
    let code = 0;
    let session: 'open' | 'ended' | undefined = start.session ? 'open' : undefined;
    for (const line of String(start.code).split('\n')) {
      const [command = '', ...rest] = line.trim().split(' ');
      const arg = rest.join(' ');
      if (command === 'print') out(arg);
      else if (command === 'eprint') this.send({ type: 'stderr', data: `${arg}\n` });
      else if (command === 'servers') out((context.mcp?.loaded ?? []).map((s) => s.name).join(',') || '(none)');
      else if (command === 'packages') out(context.packages ?? '(none)');
      else if (command === 'set') this.vars.set(rest[0] ?? '', rest.slice(1).join(' '));
      else if (command === 'get') out(this.vars.get(arg) ?? `NameError: ${arg}`);
      else if (command === 'sleep') await new Promise((r) => setTimeout(r, Number(arg)));
      else if (command === 'wait') await this.options.gate?.();
      else if (command === 'end') session = 'ended';
      else if (command === 'exit') {
        code = Number(arg);
        break;
      } else if (command === 'call') {
        const [server, tool, ...json] = rest;
        const answer = await this.call({ type: 'call_tool', server, tool, arguments: JSON.parse(json.join(' ') || '{}') });
        out(answer.success ? JSON.stringify(answer.payload) : `MCPError: ${String(answer.error)}`);
      }
    }
    this.send({ type: 'exit', code, ...(session ? { session } : {}) });
    // A single-use sandbox ends after its run; a session's waits for its next call.
    if (session !== 'open') setImmediate(() => this.end({ exitCode: code, signal: null }));
  }
}
