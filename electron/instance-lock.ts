// One engine per SANDBAR_HOME: `serve` and the desktop app claim `instance.lock` in the home before they
// start anything, so a second one started with the same home refuses with one line naming the running one
// (its pid, and its endpoint once it listens) instead of starting a second engine, pool and history writer
// on the same files. The lock holds the holder's pid; a lock whose process is gone (a crash) is taken over.
// Plain Node only: `serve` checks it before it loads anything heavy.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readInstance } from './instance-file.js';

export const LOCK_FILE = 'instance.lock';

export interface LockHolder {
  pid: number;
  /** The holder's MCP endpoint, once it listens (from instance.json); null while it starts. */
  url: string | null;
}

export type HomeClaim = { ok: true; release(): void } | { ok: false; holder: LockHolder };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process of another user holds that pid, so it is alive (and not ours to take over).
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderPid(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Claims `home` for this process. Refused while another live process holds it; a lock left by a process
 * that is gone (or unreadable) is replaced. `release` removes the lock if it is still this process's.
 */
export function claimHome(home: string, pid = process.pid): HomeClaim {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = path.join(home, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // O_EXCL: of two processes starting at once, exactly one creates the file.
      writeFileSync(file, `${pid}\n`, { flag: 'wx', mode: 0o600 });
      return { ok: true, release: () => releaseHome(home, pid) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = holderPid(file);
    if (holder === pid) return { ok: true, release: () => releaseHome(home, pid) };
    if (holder !== null && alive(holder)) {
      const instance = readInstance(home);
      return { ok: false, holder: { pid: holder, url: instance?.pid === holder ? instance.url : null } };
    }
    // Stale: its process is gone. Remove it and try to create it again (another starter may win that race).
    rmSync(file, { force: true });
  }
  throw new Error(`Could not claim ${file}: it keeps changing; is another Sandbar starting with this SANDBAR_HOME?`);
}

export function releaseHome(home: string, pid = process.pid): void {
  const file = path.join(home, LOCK_FILE);
  if (holderPid(file) === pid) rmSync(file, { force: true });
}

/** The one line a second `serve` (or desktop app) prints instead of starting. */
export function alreadyRunningLine(home: string, holder: LockHolder): string {
  const where = holder.url ? `at ${holder.url}` : '(still starting, not listening yet)';
  return `Sandbar is already running for SANDBAR_HOME=${home}: pid ${holder.pid} ${where}. Use that one, stop it first, or set SANDBAR_HOME to another folder.`;
}
