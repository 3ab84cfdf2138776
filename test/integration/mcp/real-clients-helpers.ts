// Process plumbing for real-clients.test.ts: the built `sandbar` bin, the MCP Inspector CLI and
// mcp-remote, each a real child process with a hard time limit and a guaranteed kill.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const SANDBAR_BIN = path.join(REPO_ROOT, 'dist/electron/cli.js');
export const INSPECTOR_BIN = path.join(REPO_ROOT, 'node_modules/.bin/mcp-inspector');
export const MCP_REMOTE_BIN = path.join(REPO_ROOT, 'node_modules/.bin/mcp-remote');

/** Every child started here, so afterAll can kill whatever a failed test left running. */
const live = new Set<ChildProcess>();
/** Children started detached, as leaders of their own process group. */
const groupLeaders = new WeakSet<ChildProcess>();
/** Children the SDK's StdioClientTransport spawned for us, by pid. */
const foreignPids = new Set<number>();

export function trackPid(pid: number | null | undefined): void {
  if (pid) foreignPids.add(pid);
}

/** Signals a detached child's whole process group: the inspector's inner CLI and the server it launched. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || !groupLeaders.has(child)) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is empty, nothing is left to stop.
  }
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  killGroup(child, signal);
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

/** SIGKILLs every child (and its group) still running. Safe to call more than once. */
export function killAllChildren(): void {
  for (const child of live) kill(child, 'SIGKILL');
  live.clear();
  for (const pid of foreignPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  foreignPids.clear();
}

/** This process's environment minus every Sandbar, bridge and mcp-remote setting, plus `extra`. */
export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(SANDBAR_|MCP_BRIDGE_|MCP_REMOTE_)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

/**
 * Runs a command to completion, killing its whole process group after `timeoutMs`. stdin gets `input` and is
 * then closed, unless `keepStdinOpen` (for a stdio server that would take EOF as "the client left").
 */
export function run(
  command: string,
  args: string[],
  options: {
    env: Record<string, string>;
    timeoutMs: number;
    input?: string;
    keepStdinOpen?: boolean;
    /** Called for each stdout line, with a way to answer on stdin (a scripted stdio client). */
    onLine?: (line: string, write: (text: string) => void) => void;
  },
): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    groupLeaders.add(child);
    live.add(child);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin!.on('error', () => {});
    const onLine = options.onLine;
    if (onLine) createInterface({ input: child.stdout! }).on('line', (line) => onLine(line, (text) => child.stdin!.write(text)));
    if (options.keepStdinOpen) child.stdin!.write(options.input ?? '');
    else child.stdin!.end(options.input ?? '');
    const timer = setTimeout(() => {
      timedOut = true;
      kill(child, 'SIGKILL');
    }, options.timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      live.delete(child);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      // A group leader can exit before its children: nothing it started may outlive it.
      killGroup(child, 'SIGKILL');
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}

/** `mcp-inspector --cli <args>`, bounded (60 s by default). */
export function inspector(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<RunResult> {
  return run(INSPECTOR_BIN, ['--cli', ...args], { env, timeoutMs });
}

/** The JSON document the inspector printed; on failure the error shows what it printed instead. */
export function inspectorJson(result: RunResult): unknown {
  if (result.code !== 0 || result.timedOut) {
    throw new Error(`mcp-inspector exited ${result.code ?? result.signal}${result.timedOut ? ' (timed out)' : ''}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
  return JSON.parse(result.stdout);
}

export interface ServeProcess {
  url: string;
  tokenFile: string;
  pid: number;
  stdout: () => string;
  stderr: () => string;
  /** SIGTERM, then the exit code, or the signal's name if it had to be SIGKILLed after `graceMs`. */
  stop: (graceMs?: number) => Promise<number | NodeJS.Signals | null>;
}

/** Starts `sandbar serve --port 0` and waits for the two lines naming its endpoint and its token file. */
export async function startServe(env: Record<string, string>, timeoutMs = 60_000, extraArgs: string[] = []): Promise<ServeProcess> {
  const child = spawn(process.execPath, [SANDBAR_BIN, 'serve', '--port', '0', ...extraArgs], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let stderr = '';
  let stdout = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve(code ?? signal);
    }),
  );
  const stop = async (graceMs = 20_000) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const result = await exited;
    clearTimeout(timer);
    return result;
  };

  const lines = createInterface({ input: child.stdout! });
  try {
    const found = await new Promise<{ url: string; tokenFile: string }>((resolve, reject) => {
      let url: string | undefined;
      const timer = setTimeout(() => reject(new Error(`sandbar serve printed no endpoint within ${timeoutMs} ms\nstderr: ${stderr}`)), timeoutMs);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`sandbar serve exited (${code}) before it was ready\nstderr: ${stderr}`));
      });
      lines.on('line', (line) => {
        stdout += `${line}\n`;
        const endpoint = /^Sandbar MCP endpoint: (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(line);
        if (endpoint) url = endpoint[1];
        const file = /^Client token file \(for MCP clients\): (.+)$/.exec(line);
        if (file && url) {
          clearTimeout(timer);
          resolve({ url, tokenFile: file[1]! });
        }
      });
    });
    return { ...found, pid: child.pid!, stdout: () => stdout, stderr: () => stderr, stop };
  } catch (err) {
    await stop(2000);
    throw err;
  }
}

/**
 * mcp-remote's arguments for `url`. The header names `${SANDBAR_TEST_TOKEN}`, which mcp-remote expands
 * from its own environment: the token never appears in any process's argv.
 */
export function mcpRemoteArgs(url: string, extra: string[] = []): string[] {
  return [MCP_REMOTE_BIN, url, '--header', 'Authorization: Bearer ${SANDBAR_TEST_TOKEN}', ...extra];
}

/** The environment for mcp-remote: HOME and its config dir inside `scratch`, never the real home. */
export function mcpRemoteEnv(scratch: string, token: string): Record<string, string> {
  return baseEnv({
    HOME: scratch,
    MCP_REMOTE_CONFIG_DIR: path.join(scratch, 'mcp-auth'),
    SANDBAR_TEST_TOKEN: token,
    // Belt and braces: nothing in these tests should ever get as far as a browser.
    BROWSER: 'false',
  });
}
