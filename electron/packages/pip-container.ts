// One pip step in a helper container: the same hardening as a run (no network, read-only root, no
// capabilities, unprivileged, limits), pip from its own wheel (images need no pip), and HTTP to the index
// proxy only through the tunnel in pip_tunnel.py. Resolution and installation are both this, with
// different pip arguments.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { assetPath } from '../asset-path.js';
import { spawnAttached } from '../sandbox/cli/command.js';
import type { SandboxSpec } from '../sandbox/sandbox-spec.js';

// Read on first use: every command loads this module, few of them resolve packages.
let tunnelSource: string | undefined;
const tunnel = () => (tunnelSource ??= readFileSync(assetPath('packages/pip_tunnel.py'), 'utf8'));
/** Frames are at most ~1.4 MB (1 MiB of tar, base64); anything longer is not ours. */
const MAX_LINE = 8 * 1024 * 1024;

export interface PipStep {
  pipWheel: Buffer;
  /** pip's arguments; `{INDEX}` becomes the tunnel's index URL inside the container. */
  args: string[];
  /** A directory inside the container to send back as a tar stream once pip succeeds. */
  tarFrom?: string;
}

export interface PipOutcome {
  code: number | null;
  output: string;
  report: unknown;
}

/**
 * The spec's command is replaced by the tunnel; everything else (limits, mounts, labels) is the caller's.
 * `lifetimeSec`: the helper ends itself after this long (a timer inside it, read before anything else, so
 * it holds on runtimes without `--timeout` and when the host process is gone).
 */
export function pipSpec(base: Omit<SandboxSpec, 'command'>, lifetimeSec: number): SandboxSpec {
  if (!Number.isInteger(lifetimeSec) || lifetimeSec <= 0) throw new Error(`not a helper lifetime: ${lifetimeSec}`);
  return { ...base, command: ['python3', '-c', tunnel(), String(lifetimeSec)] };
}

export async function runPipStep(
  runtime: { path: string; argsOf(spec: SandboxSpec): string[] },
  spec: SandboxSpec,
  step: PipStep,
  options: { proxySocket?: string; onTar?: (chunk: Buffer) => void; signal?: AbortSignal; kill(name: string): Promise<void> },
): Promise<PipOutcome> {
  const proc = spawnAttached(runtime.path, runtime.argsOf(spec));
  const conns = new Map<number, net.Socket>();
  let done: PipOutcome | undefined;
  let failure: string | undefined;
  const write = (obj: object) => {
    if (!proc.stdin.destroyed) proc.stdin.write(`${JSON.stringify(obj)}\n`);
  };
  const onFrame = (frame: { t?: string; c?: number; d?: string; code?: number; output?: string; report?: unknown }) => {
    const id = frame.c ?? -1;
    if (frame.t === 'open') {
      if (!options.proxySocket) return write({ t: 'close', c: id });
      const socket = net.connect(options.proxySocket);
      conns.set(id, socket);
      socket.on('data', (d: Buffer) => write({ t: 'data', c: id, d: d.toString('base64') }));
      socket.on('end', () => write({ t: 'close', c: id }));
      socket.on('error', () => write({ t: 'close', c: id }));
    } else if (frame.t === 'data') {
      conns.get(id)?.write(Buffer.from(frame.d ?? '', 'base64'));
    } else if (frame.t === 'close') {
      conns.get(id)?.end();
    } else if (frame.t === 'tar') {
      options.onTar?.(Buffer.from(frame.d ?? '', 'base64'));
    } else if (frame.t === 'done') {
      done = { code: typeof frame.code === 'number' ? frame.code : null, output: frame.output ?? '', report: frame.report ?? null };
    }
  };

  let pending: Buffer[] = [];
  let pendingBytes = 0;
  proc.stdout.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const line = Buffer.concat([...pending, chunk.subarray(start, nl)]).toString('utf8');
      pending = [];
      pendingBytes = 0;
      start = nl + 1;
      try {
        onFrame(JSON.parse(line) as Parameters<typeof onFrame>[0]);
      } catch {
        failure ??= 'the package helper sent something that is not a frame';
      }
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > MAX_LINE) {
        failure ??= 'the package helper sent an oversized frame';
        proc.kill();
      }
    }
  });
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-4000);
  });
  const abort = () => void options.kill(spec.name).catch(() => {});
  options.signal?.addEventListener('abort', abort, { once: true });
  if (options.signal?.aborted) abort();
  write({ pip: step.pipWheel.toString('base64'), args: step.args, ...(step.tarFrom ? { tarFrom: step.tarFrom } : {}) });
  const exit = await proc.exited;
  options.signal?.removeEventListener('abort', abort);
  for (const socket of conns.values()) socket.destroy();
  if (failure) throw new Error(failure);
  if (!done) {
    const why = exit.spawnError ?? (stderr.trim() || `the helper container exited with code ${exit.exitCode ?? exit.signal}`);
    throw new Error(`The package helper container failed: ${why}`);
  }
  return done;
}
