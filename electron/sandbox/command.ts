// The one place that starts host processes (the container runtime CLI). Everything else asks this adapter.
import { execa } from 'execa';
import type { Readable, Writable } from 'node:stream';

export interface CommandResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Set when the command could not start at all (ENOENT, EACCES) or timed out. */
  spawnError?: string;
  timedOut: boolean;
}

export async function runCommand(
  file: string,
  args: readonly string[],
  options: { timeoutMs?: number; input?: string } = {},
): Promise<CommandResult> {
  const result = await execa(file, args, {
    reject: false,
    timeout: options.timeoutMs ?? 60_000,
    input: options.input,
    stripFinalNewline: true,
    windowsHide: true,
    maxBuffer: 64 * 1024 * 1024,
  });
  const notStarted = result.exitCode === undefined && !result.timedOut;
  return {
    exitCode: result.exitCode ?? null,
    stdout: typeof result.stdout === 'string' ? result.stdout : '',
    stderr: typeof result.stderr === 'string' ? result.stderr : '',
    timedOut: result.timedOut,
    ...(notStarted || result.timedOut ? { spawnError: result.shortMessage } : {}),
  };
}

/** Runs a command to its end, handing each line of stdout and stderr to `onLine` as it arrives. */
export async function runStreaming(
  file: string,
  args: readonly string[],
  onLine: (line: string) => void,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<CommandResult> {
  const child = execa(file, args, {
    reject: false,
    timeout: options.timeoutMs ?? 60_000,
    windowsHide: true,
    stripFinalNewline: true,
    all: true,
    ...(options.signal ? { cancelSignal: options.signal } : {}),
  });
  let pending = '';
  child.all?.on('data', (chunk: Buffer) => {
    // Progress bars redraw with \r: each redraw is a line for the panel.
    const parts = (pending + chunk.toString('utf8')).split(/\r\n|\r|\n/);
    pending = parts.pop() ?? '';
    for (const part of parts) if (part.trim()) onLine(part);
  });
  const result = await child;
  if (pending.trim()) onLine(pending);
  const notStarted = result.exitCode === undefined && !result.timedOut && !result.isCanceled;
  return {
    exitCode: result.exitCode ?? null,
    stdout: typeof result.stdout === 'string' ? result.stdout : '',
    stderr: typeof result.stderr === 'string' ? result.stderr : '',
    timedOut: result.timedOut,
    ...(notStarted || result.timedOut || result.isCanceled ? { spawnError: result.shortMessage } : {}),
  };
}

export interface ProcessExit {
  exitCode: number | null;
  signal: string | null;
  spawnError?: string;
}

/** A long-lived child with piped stdio (a container attached with `run -i`). */
export interface AttachedProcess {
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly exited: Promise<ProcessExit>;
  kill(signal?: NodeJS.Signals): void;
}

export function spawnAttached(file: string, args: readonly string[]): AttachedProcess {
  const child = execa(file, args, {
    reject: false,
    buffer: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    stripFinalNewline: false,
    windowsHide: true,
    // The container is killed by name; never let a signal to us cascade into a half-dead client.
    cleanup: false,
  });
  const exited = child.then((r) => ({
    exitCode: r.exitCode ?? null,
    signal: r.signal ?? null,
    ...(r.exitCode === undefined && !r.signal ? { spawnError: r.shortMessage } : {}),
  }));
  // A closed pipe (the container died mid-write) is reported through `exited`, never thrown.
  child.stdin.on('error', () => {});
  return {
    pid: child.pid,
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    kill: (signal = 'SIGKILL') => {
      child.kill(signal);
    },
  };
}
