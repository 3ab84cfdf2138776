// The one place that starts host processes (the container runtime CLI). Everything else asks this adapter.
// execa runs the commands that end (timeouts, buffering, clean messages); it loads on first use, since
// importing it costs about 0.1 s that a one-shot `sandbar run` would pay before its container starts.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AttachedProcess, ProcessExit } from '../run/attached-process.js';

let scratch: string | undefined;
/**
 * The directory runtime commands run in. Podman's conmon writes an empty `oom` file into its caller's
 * working directory when a container is killed for memory (seen with conmon 2.1 on cgroup v1), so a
 * runtime started from the user's project or the app's folder would litter it; this owner-only directory
 * takes those files instead (falling back to the temp directory itself if it cannot be made).
 */
export function runtimeCwd(): string {
  if (scratch) return scratch;
  const dir = path.join(os.tmpdir(), `sandbar-runtime-${process.getuid?.() ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    scratch = dir;
  } catch {
    scratch = os.tmpdir();
  }
  return scratch;
}

const loadExeca = () => import('execa').then((m) => m.execa);

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
  const execa = await loadExeca();
  const result = await execa(file, args, {
    cwd: runtimeCwd(),
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
  const execa = await loadExeca();
  const child = execa(file, args, {
    cwd: runtimeCwd(),
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

/** Node's own spawn: a piped stream is all this needs, and the container is killed by name anyway. */
export function spawnAttached(file: string, args: readonly string[]): AttachedProcess {
  // Never detached, never killed with us: a signal to Sandbar must not cascade into a half-dead client.
  const child = spawn(file, args, { cwd: runtimeCwd(), stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  const exited = new Promise<ProcessExit>((resolve) => {
    // A child that never started (ENOENT, EACCES) has no pid; one that ran ends with 'close' (stdio drained).
    child.once('error', (err) => {
      if (child.pid === undefined) resolve({ exitCode: null, signal: null, spawnError: `Command failed: ${file}: ${err.message}` });
    });
    child.once('close', (code, signal) => resolve({ exitCode: code, signal }));
  });
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
