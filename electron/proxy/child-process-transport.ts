// An MCP client transport over a child process's stdio. Like the SDK's StdioClientTransport, but it keeps
// what a person needs when a server fails: the exit code, a missing executable, and the stderr tail.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JsonLineReader } from './json-line-reader.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const STDERR_TAIL = 4096;

export interface ChildProcessTransportOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not start at all (ENOENT, EACCES). */
  spawnError?: NodeJS.ErrnoException;
}

export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** How the process ended; undefined while it runs. */
  exit: ChildExit | undefined;
  private child: ChildProcess | undefined;
  private readonly reader = new JsonLineReader();
  private tail = '';

  constructor(private readonly options: ChildProcessTransportOptions) {}

  get stderrTail(): string {
    return this.tail.trim();
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        env: this.options.env,
        ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
        shell: false,
      });
      this.child = child;
      child.once('error', (err: NodeJS.ErrnoException) => {
        if (child.pid === undefined) {
          this.exit = { code: null, signal: null, spawnError: err };
          reject(err);
          this.onclose?.();
        } else {
          this.onerror?.(err);
        }
      });
      child.once('spawn', () => resolve());
      child.once('close', (code, signal) => {
        this.exit ??= { code, signal };
        this.onclose?.();
      });
      child.stdout!.on('data', (chunk: Buffer) => {
        for (const line of this.reader.push(chunk)) {
          // A line that is not JSON-RPC (a stray log line) is reported and skipped, not fatal.
          if ('error' in line) this.onerror?.(line.error);
          else this.onmessage?.(line.message);
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        this.tail = (this.tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      child.stdin!.on('error', (err) => this.onerror?.(err));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) {
        reject(new Error('the server process is not running'));
        return;
      }
      // Two writes rather than serializeMessage's `json + '\n'`, which copies a large message once more.
      stdin.write(JSON.stringify(message));
      if (stdin.write('\n')) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.exit) return;
    child.stdin?.end();
    // Servers get a moment to exit on their own when stdin closes; then they are killed.
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const timer = setTimeout(() => child.kill('SIGTERM'), 1000);
    const hard = setTimeout(() => child.kill('SIGKILL'), 3000);
    await closed;
    clearTimeout(timer);
    clearTimeout(hard);
  }
}
