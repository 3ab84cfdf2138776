// Keeps history within its age and size limits, and clears it on request. Deletes run in small batches,
// each its own transaction, so another process writing the same database never waits long for the lock
// and the store can yield to the event loop between batches.
import type { PruneResult, RetentionPolicy } from '../../shared/history.js';
import type { SqlDriver, SqlStatement } from './sqlite-driver.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Each deleted run is also removed from the search index (its text re-tokenized): ~0.5 ms a run. */
export const PRUNE_BATCH = 25;
/** Runs still in flight are never deleted: their finish would come back to a missing row. */
const SETTLED = `status NOT IN ('queued', 'running')`;

export class HistoryRetention {
  private readonly oldest: SqlStatement;
  private readonly total: SqlStatement;
  private readonly overBudget: SqlStatement;
  private readonly deleteOne: SqlStatement;

  constructor(
    private readonly db: SqlDriver,
    private readonly now: () => number = Date.now,
  ) {
    this.oldest = db.prepare(`SELECT seq FROM executions WHERE queued_at < ? AND ${SETTLED} ORDER BY queued_at, seq LIMIT ${PRUNE_BATCH}`);
    this.total = db.prepare('SELECT coalesce(sum(size_bytes), 0) AS total FROM executions');
    // Newest first, a running total of sizes: every settled run past the budget goes.
    this.overBudget = db.prepare(`SELECT seq FROM (
        SELECT seq, status, sum(size_bytes) OVER (ORDER BY queued_at DESC, seq DESC) AS running_total FROM executions
      ) WHERE running_total > ? AND ${SETTLED}`);
    this.deleteOne = db.prepare('DELETE FROM executions WHERE seq = ?');
  }

  /** Deletes runs older than the age limit, then the oldest runs past the size limit, all at once. */
  prune(policy: RetentionPolicy): PruneResult {
    const steps = this.pruneSteps(policy);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /** The same, one batch per step, for callers that yield to the event loop between batches. */
  *pruneSteps(policy: RetentionPolicy): Generator<PruneResult, PruneResult> {
    const done: PruneResult = { byAge: 0, bySize: 0 };
    if (policy.maxAgeDays > 0) {
      const cutoff = this.now() - policy.maxAgeDays * DAY_MS;
      for (;;) {
        const seqs = this.oldest.all<{ seq: number }>([cutoff]).map((r) => r.seq);
        if (seqs.length === 0) break;
        done.byAge += this.remove(seqs);
        yield { ...done };
      }
    }
    if (policy.maxBytes > 0 && this.totalBytes() > policy.maxBytes) {
      const seqs = this.overBudget.all<{ seq: number }>([policy.maxBytes]).map((r) => r.seq);
      for (let i = 0; i < seqs.length; i += PRUNE_BATCH) {
        done.bySize += this.remove(seqs.slice(i, i + PRUNE_BATCH));
        yield { ...done };
      }
    }
    return done;
  }

  /**
   * "Clear history": every settled run goes; runs in flight stay until they finish. Emptying the search
   * index in one command is far cheaper than removing runs from it one by one, so the per-row cleanup
   * trigger is set aside for this one transaction and put back exactly as it was.
   */
  clear(): number {
    const deleted = this.db.transaction(() => {
      const trigger = this.db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'executions_cleanup'`).get<{ sql: string }>();
      if (!trigger) throw new Error('the history schema has no executions_cleanup trigger');
      this.db.exec('DROP TRIGGER executions_cleanup');
      // Only settled runs are in the index, and they all go: the index ends up exactly empty.
      this.db.exec(`INSERT INTO executions_fts (executions_fts) VALUES ('delete-all')`);
      this.db.exec(`DELETE FROM tool_calls WHERE execution_id IN (SELECT id FROM executions WHERE ${SETTLED})`);
      this.db.exec(`DELETE FROM artifacts WHERE execution_id IN (SELECT id FROM executions WHERE ${SETTLED})`);
      this.db.exec(`DELETE FROM execution_servers WHERE execution_seq IN (SELECT seq FROM executions WHERE ${SETTLED})`);
      const { changes } = this.db.prepare(`DELETE FROM executions WHERE ${SETTLED}`).run();
      this.db.exec(trigger.sql);
      return changes;
    });
    // Rewriting the (now small) database is far faster than handing pages back one by one, returns the space,
    // and leaves no cleared text in free pages. Best effort: another process mid-read can hold it off, and
    // then the free pages are simply reused by later runs.
    try {
      this.db.exec('VACUUM');
      this.db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
    } catch {
      // The rows are gone either way.
    }
    return deleted;
  }

  /** The recorded size of every run together: what the size limit applies to. */
  totalBytes(): number {
    return this.total.get<{ total: number }>()?.total ?? 0;
  }

  private remove(seqs: number[]): number {
    // The cleanup trigger also drops the run's search entry, servers, tool calls and artifacts.
    return this.db.transaction(() => seqs.reduce((n, seq) => n + this.deleteOne.run([seq]).changes, 0));
  }
}
