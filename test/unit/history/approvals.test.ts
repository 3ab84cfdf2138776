// Every decision about a run's tool calls from code is recorded with the run (issue 17): returned in its
// detail oldest first, counted in its size, and deleted with it.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../../electron/history/history-store.js';
import { approvalCost } from '../../../electron/history/history-writer.js';
import { SCHEMA_VERSION } from '../../../electron/history/migrations.js';
import type { ApprovalOutcome } from '../../../shared/approvals.js';
import type { EngineEvent } from '../../../shared/execution.js';
import { openStore, rawDriver, runEvents, tempDir } from './helpers.js';

let dir: ReturnType<typeof tempDir>;
let file: string;
let store: HistoryStore;

beforeEach(async () => {
  dir = tempDir();
  file = path.join(dir.dir, 'history.db');
  store = await openStore(file, { retention: { maxAgeDays: 0, maxBytes: 0 } });
});
afterEach(() => {
  store.dispose();
  dir.cleanup();
});

const outcome = (runId: string, n: number, decision: ApprovalOutcome['decision'], by: string): ApprovalOutcome => ({
  id: `a0000000000${n}`,
  runId,
  server: 'effects',
  tool: n % 2 ? 'delete_item' : 'send_mail',
  argsHash: `${n}`.repeat(64),
  decision,
  by,
  at: 1_000 + n,
});

/** A run whose decisions arrive between its start and its end, as the engine publishes them. */
function recordWith(decisions: (runId: string) => ApprovalOutcome[]): string {
  const events = runEvents();
  const id = (events[0] as Extract<EngineEvent, { type: 'queued' }>).execution.id;
  const finished = events.pop()!;
  for (const e of events) store.record(e);
  for (const o of decisions(id)) store.record({ type: 'approvalResolved', outcome: o });
  store.record(finished);
  store.flush(); // the tests read the file through a second connection
  return id;
}

async function rows(sql: string): Promise<unknown[]> {
  const db = await rawDriver(file);
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

describe('approval decisions in the history', () => {
  it('come back with the run, oldest first, with who decided and the argument hash', () => {
    const id = recordWith((run) => [outcome(run, 2, 'deny', 'policy'), outcome(run, 1, 'allow-once', 'panel'), outcome(run, 3, 'timeout', 'deadline')]);
    expect(store.get(id)!.approvals).toEqual([outcome(id, 1, 'allow-once', 'panel'), outcome(id, 2, 'deny', 'policy'), outcome(id, 3, 'timeout', 'deadline')]);
  });

  it('a run without questions has none; a decision recorded twice is kept once', () => {
    const quiet = recordWith(() => []);
    expect(store.get(quiet)!.approvals).toEqual([]);
    const twice = recordWith((run) => [outcome(run, 1, 'allow-run', 'tray'), outcome(run, 1, 'allow-run', 'tray')]);
    expect(store.get(twice)!.approvals).toHaveLength(1);
  });

  it('a decision about a run the store never saw is not kept (it could never be cleaned up)', async () => {
    store.record({ type: 'approvalResolved', outcome: outcome('not-a-run', 1, 'deny', 'cli') });
    expect(await rows('SELECT * FROM approvals')).toEqual([]);
  });

  it('counts in the run size and goes with the run', async () => {
    const plain = recordWith(() => []);
    const asked = recordWith((run) => [outcome(run, 1, 'allow-once', 'panel'), outcome(run, 2, 'cancelled', 'run ended')]);
    const sizes = Object.fromEntries((await rows('SELECT id, size_bytes FROM executions')).map((r) => [(r as { id: string }).id, (r as { size_bytes: number }).size_bytes]));
    expect(sizes[asked]! - sizes[plain]!).toBe(approvalCost(outcome(asked, 1, 'allow-once', 'panel')) + approvalCost(outcome(asked, 2, 'cancelled', 'run ended')));
    expect(store.clear()).toBe(2);
    expect(await rows('SELECT * FROM approvals')).toEqual([]);
  });

  it('live in their own migration step: the schema is at v5 with the approvals table', async () => {
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(5);
    const columns = (await rows("SELECT name FROM pragma_table_info('approvals')")).map((c) => (c as { name: string }).name);
    expect(columns).toEqual(['id', 'execution_id', 'approval_id', 'server', 'tool', 'args_hash', 'decision', 'decided_by', 'decided_at']);
  });
});
