// Runs left queued or running by a process that died (crash, SIGKILL, power loss) become `interrupted`
// at the next start. Several processes share the database, so only a dead writer's runs are touched.
import type { SqlDriver } from './sqlite-driver.js';
import type { WriterIdentity } from './history-writer.js';

/** Longer than any run can last (the queue plus the 3600 s timeout ceiling), with a wide margin. */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

export const INTERRUPTED_MESSAGE = 'Sandbar stopped before this run finished';

export interface InterruptOptions {
  identity: WriterIdentity;
  now: number;
  /** False when no other store in this process has the database open: rows with our own pid are then a dead predecessor's. */
  ownPidInUse: boolean;
  isAlive?: (pid: number) => boolean;
  staleAfterMs?: number;
}

/** Signal 0 probes without signalling; EPERM means the process exists but belongs to someone else. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface InFlightRow {
  seq: number;
  owner_host: string | null;
  owner_pid: number | null;
  queued_at: number;
}

function writerIsGone(row: InFlightRow, options: InterruptOptions): boolean {
  if (row.queued_at < options.now - (options.staleAfterMs ?? STALE_AFTER_MS)) return true;
  // Rows from before owners were recorded have no one left to finish them.
  if (row.owner_pid === null || row.owner_host === null) return true;
  // Another machine sharing the folder: its processes cannot be probed; only age retires its rows.
  if (row.owner_host !== options.identity.host) return false;
  if (row.owner_pid === options.identity.pid) return !options.ownPidInUse;
  return !(options.isAlive ?? processAlive)(row.owner_pid);
}

/** Returns how many runs were marked interrupted. */
export function markInterrupted(db: SqlDriver, options: InterruptOptions): number {
  return db.transaction(() => {
    const rows = db
      .prepare(`SELECT seq, owner_host, owner_pid, queued_at FROM executions WHERE status IN ('queued', 'running')`)
      .all<InFlightRow>();
    const mark = db.prepare(`UPDATE executions SET status = 'interrupted', error = ? WHERE seq = ? AND status IN ('queued', 'running')`);
    let marked = 0;
    for (const row of rows) if (writerIsGone(row, options)) marked += mark.run([INTERRUPTED_MESSAGE, row.seq]).changes;
    return marked;
  });
}
