// Freezing a session's sandbox between calls the way `runc pause` does, without a CLI on the path of every
// call (`podman pause`/`unpause` cost 40-100 ms each here): a write to the container's freezer cgroup
// (cgroup v1 freezer.state, or v2 cgroup.freeze), else `runc`/`crun` `pause`/`resume` themselves. Used only
// where it is proven to address the very container: Podman with runc or crun, after `<runtime> state <id>`
// answered with that id and its init pid, whose cgroup names the container id. Anything else (Docker, gVisor,
// a failed check, a freezer we may not write) uses the container runtime's own pause. Podman's own record
// then still says "running" for a frozen container (`runc state` says "paused"); its `rm --force` removes
// a frozen one all the same (checked: 0.4 s).
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCommand } from './command.js';
import { knownInstallDirs } from './runtime-locator.js';
import { homedir } from 'node:os';

/** OCI runtimes whose `state`, `pause` and `resume` commands and default state directory Podman shares. */
const DIRECT_RUNTIMES = ['runc', 'crun'];
const CONTAINER_ID = /^[0-9a-f]{64}$/;

interface Direct {
  runtime: string;
  id: string;
  /** The container's freezer, when this process may write it. */
  freezer: { kind: 'v1' | 'v2'; file: string } | null;
}

const FREEZE_WAIT_MS = 2000;

export class OciFreezer {
  private readonly located = new Map<string, Promise<Direct | null>>();

  constructor(
    private readonly podman: () => Promise<{ name: string; path: string } | null>,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Pauses or resumes through the OCI runtime; false when this container has no proven direct path. */
  async toggle(name: string, op: 'pause' | 'resume'): Promise<boolean> {
    let lookup = this.located.get(name);
    if (!lookup) {
      lookup = this.locate(name).catch(() => null);
      this.located.set(name, lookup);
    }
    const direct = await lookup;
    if (!direct) return false;
    if (direct.freezer && (await writeFreezer(direct.freezer, op))) return true;
    // node's execFile, not execa: this is on the path of every session call, and execa's own set-up costs
    // about 10 ms per command here.
    return new Promise<boolean>((resolve) => {
      execFile(direct.runtime, [op, direct.id], { timeout: 15_000, windowsHide: true }, (err) => resolve(!err));
    });
  }

  /** The container is gone: its entry goes too. */
  forget(name: string): void {
    this.located.delete(name);
  }

  private async locate(name: string): Promise<Direct | null> {
    const podman = await this.podman();
    if (!podman || podman.name !== 'podman') return null;
    const inspected = await runCommand(podman.path, ['inspect', '--format', '{{.Id}} {{.OCIRuntime}}', '--', name], { timeoutMs: 15_000 });
    const [id = '', runtimeName = ''] = inspected.stdout.trim().split(' ');
    if (inspected.exitCode !== 0 || !CONTAINER_ID.test(id) || !DIRECT_RUNTIMES.includes(runtimeName)) return null;
    const runtime = this.findExecutable(runtimeName);
    if (!runtime) return null;
    const state = await runCommand(runtime, ['state', id], { timeoutMs: 15_000 });
    if (state.exitCode !== 0) return null;
    let parsed: { id?: unknown; pid?: unknown };
    try {
      parsed = JSON.parse(state.stdout) as { id?: unknown; pid?: unknown };
    } catch {
      return null;
    }
    if (parsed.id !== id) return null;
    return { runtime, id, freezer: Number.isSafeInteger(parsed.pid) && (parsed.pid as number) > 0 ? await freezerOf(parsed.pid as number, id) : null };
  }

  private findExecutable(name: string): string | null {
    const dirs = [...(this.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...knownInstallDirs('linux', homedir())];
    for (const dir of dirs) {
      const file = path.join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
    return null;
  }
}

/** The freezer cgroup of the container's init process, if it names the container and this process may write it. */
async function freezerOf(pid: number, id: string): Promise<Direct['freezer']> {
  try {
    const lines = (await readFile(`/proc/${pid}/cgroup`, 'utf8')).split('\n');
    const v1 = lines.find((l) => l.split(':')[1]?.split(',').includes('freezer'));
    const v2 = lines.find((l) => l.startsWith('0::'));
    const candidate = v1
      ? { kind: 'v1' as const, dir: path.join('/sys/fs/cgroup/freezer', v1.split(':').slice(2).join(':')), file: 'freezer.state' }
      : v2
        ? { kind: 'v2' as const, dir: path.join('/sys/fs/cgroup', v2.slice(3)), file: 'cgroup.freeze' }
        : null;
    if (!candidate || !candidate.dir.includes(id) || candidate.dir.includes('..')) return null;
    const file = path.join(candidate.dir, candidate.file);
    accessSync(file, constants.W_OK);
    return { kind: candidate.kind, file };
  } catch {
    return null;
  }
}

/** Freezes (waiting until every task is frozen) or thaws; false when the kernel did not follow. */
async function writeFreezer(freezer: NonNullable<Direct['freezer']>, op: 'pause' | 'resume'): Promise<boolean> {
  try {
    if (freezer.kind === 'v1') {
      await writeFile(freezer.file, op === 'pause' ? 'FROZEN' : 'THAWED');
      if (op === 'resume') return true;
      return await waitFor(async () => (await readFile(freezer.file, 'utf8')).trim() === 'FROZEN');
    }
    await writeFile(freezer.file, op === 'pause' ? '1' : '0');
    if (op === 'resume') return true;
    const events = path.join(path.dirname(freezer.file), 'cgroup.events');
    return await waitFor(async () => /^frozen 1$/m.test(await readFile(events, 'utf8')));
  } catch {
    return false;
  }
}

async function waitFor(check: () => Promise<boolean>): Promise<boolean> {
  const end = Date.now() + FREEZE_WAIT_MS;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 1));
  }
  return true;
}
