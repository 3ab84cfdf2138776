// The history schema as numbered migrations, tracked in PRAGMA user_version. A migration never changes
// once released: the next change is a new entry, so any older database walks forward to the current one.
import type { SqlDriver } from './sqlite-driver.js';

export interface Migration {
  version: number;
  sql: string;
}

/**
 * v1: the first schema (executions and their tool calls). Tests rebuild it by hand to check the path from v1.
 * size_bytes is the writer's estimate of a run's stored size (see HistoryWriter), which retention adds up.
 */
const V1 = `
CREATE TABLE executions (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  client_name TEXT NOT NULL,
  client_version TEXT,
  transport TEXT,
  status TEXT NOT NULL,
  exit_reason TEXT,
  exit_code INTEGER,
  queued_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  duration_ms INTEGER,
  timeout_sec INTEGER,
  stdout_truncated INTEGER NOT NULL DEFAULT 0,
  stderr_truncated INTEGER NOT NULL DEFAULT 0,
  size_bytes INTEGER NOT NULL DEFAULT 0,
  container_name TEXT,
  error TEXT,
  servers TEXT NOT NULL DEFAULT '[]',
  limits TEXT,
  -- The large texts last: reading the columns before them never walks their overflow pages.
  code TEXT NOT NULL,
  stdout TEXT NOT NULL DEFAULT '',
  stderr TEXT NOT NULL DEFAULT ''
);
-- Covers the newest-first listing and, with status and size, retention's scans without touching the rows.
CREATE INDEX executions_queued ON executions (queued_at, seq, status, size_bytes);
CREATE INDEX executions_status ON executions (status, queued_at, seq);
CREATE TABLE tool_calls (
  id INTEGER PRIMARY KEY,
  execution_id TEXT NOT NULL,
  server TEXT NOT NULL,
  tool TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  is_error INTEGER NOT NULL,
  bytes_in INTEGER NOT NULL,
  bytes_out INTEGER NOT NULL,
  error TEXT
);
CREATE INDEX tool_calls_execution ON tool_calls (execution_id);
`;

/**
 * v2: full-text search, an exact server filter and the writer's process (so a start can tell a dead
 * writer's runs from a live one's). Existing rows are indexed and their servers backfilled.
 */
const V2 = `
ALTER TABLE executions ADD COLUMN owner_host TEXT;
ALTER TABLE executions ADD COLUMN owner_pid INTEGER;
CREATE INDEX executions_client ON executions (client_name, queued_at, seq);

CREATE TABLE execution_servers (
  server TEXT NOT NULL,
  execution_seq INTEGER NOT NULL,
  PRIMARY KEY (server, execution_seq)
) WITHOUT ROWID;
CREATE INDEX execution_servers_seq ON execution_servers (execution_seq);
INSERT OR IGNORE INTO execution_servers (server, execution_seq)
  SELECT j.value, e.seq FROM executions e, json_each(e.servers) j WHERE json_valid(e.servers);

-- Runs are indexed once they settle (leave queued/running): a run is written twice (queued, finished), and
-- indexing only the final text saves about a third of the recording cost; runs in flight are on the Live view.
CREATE VIRTUAL TABLE executions_fts USING fts5(
  code, stdout, stderr,
  content = 'executions', content_rowid = 'seq',
  tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO executions_fts (rowid, code, stdout, stderr)
  SELECT seq, code, stdout, stderr FROM executions WHERE status NOT IN ('queued', 'running');

-- An external-content index must be told exactly what it holds, so every statement checks the same rule.
CREATE TRIGGER executions_fts_insert AFTER INSERT ON executions WHEN new.status NOT IN ('queued', 'running') BEGIN
  INSERT INTO executions_fts (rowid, code, stdout, stderr) VALUES (new.seq, new.code, new.stdout, new.stderr);
END;
CREATE TRIGGER executions_fts_update AFTER UPDATE OF status, code, stdout, stderr ON executions BEGIN
  INSERT INTO executions_fts (executions_fts, rowid, code, stdout, stderr)
    SELECT 'delete', old.seq, old.code, old.stdout, old.stderr WHERE old.status NOT IN ('queued', 'running');
  INSERT INTO executions_fts (rowid, code, stdout, stderr)
    SELECT new.seq, new.code, new.stdout, new.stderr WHERE new.status NOT IN ('queued', 'running');
END;
CREATE TRIGGER executions_cleanup AFTER DELETE ON executions BEGIN
  INSERT INTO executions_fts (executions_fts, rowid, code, stdout, stderr)
    SELECT 'delete', old.seq, old.code, old.stdout, old.stderr WHERE old.status NOT IN ('queued', 'running');
  DELETE FROM execution_servers WHERE execution_seq = old.seq;
  DELETE FROM tool_calls WHERE execution_id = old.id;
END;
`;

/**
 * v3: a run's figures, displays and /workspace/out files (issue 14), kept until the run goes; and what the
 * host refused, with reasons (JSON). Their bytes count in size_bytes, so retention by size removes them
 * with the run, and a trigger of their own removes them with any deleted run. A rowid table: the bytes live
 * in overflow pages, and listing a run's artifacts never reads them.
 */
const V3 = `
ALTER TABLE executions ADD COLUMN refused_artifacts TEXT;
CREATE TABLE artifacts (
  id INTEGER PRIMARY KEY,
  execution_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  source TEXT NOT NULL,
  width INTEGER,
  height INTEGER,
  title TEXT,
  data BLOB NOT NULL,
  UNIQUE (execution_id, name)
);
CREATE TRIGGER artifacts_cleanup AFTER DELETE ON executions BEGIN
  DELETE FROM artifacts WHERE execution_id = old.id;
END;
`;

/** v4: the packages a run asked for, its layer and every fetch made for it (JSON; issue 16). */
const V4 = `
ALTER TABLE executions ADD COLUMN packages TEXT;
`;

/**
 * v5: every decision about a tool call from code (issue 17): the question's id, the call (server, tool and
 * the hash of its arguments the answer was bound to), the decision, who made it and when. Kept with the run
 * and deleted with it.
 */
const V5 = `
CREATE TABLE approvals (
  id INTEGER PRIMARY KEY,
  execution_id TEXT NOT NULL,
  approval_id TEXT NOT NULL,
  server TEXT NOT NULL,
  tool TEXT NOT NULL,
  args_hash TEXT NOT NULL,
  decision TEXT NOT NULL,
  decided_by TEXT NOT NULL,
  decided_at INTEGER NOT NULL,
  UNIQUE (execution_id, approval_id)
);
CREATE TRIGGER approvals_cleanup AFTER DELETE ON executions BEGIN
  DELETE FROM approvals WHERE execution_id = old.id;
END;
`;

/** v6: a session call's session id and its number in the session (issue 15); History groups by them. */
const V6 = `
ALTER TABLE executions ADD COLUMN session_id TEXT;
ALTER TABLE executions ADD COLUMN session_call INTEGER;
CREATE INDEX executions_session ON executions (session_id, session_call) WHERE session_id IS NOT NULL;
`;

/**
 * v7: how many of a run's tool calls were not recorded (issue 24): history keeps the first
 * MAX_TOOL_CALLS_PER_RUN and counts the rest here.
 */
const V7 = `
ALTER TABLE executions ADD COLUMN tool_calls_dropped INTEGER NOT NULL DEFAULT 0;
`;

/** v8: the user's folders a run's sandbox had (JSON: name, mount path, writable, host path; issue 27). */
const V8 = `
ALTER TABLE executions ADD COLUMN folders TEXT;
`;

/**
 * v9: a run's connections through the egress proxy (JSON array of EgressRecord, at most MAX_EGRESS_RECORDS;
 * null when egress was off) and how many more were not kept (issue 26).
 */
const V9 = `
ALTER TABLE executions ADD COLUMN egress TEXT;
ALTER TABLE executions ADD COLUMN egress_dropped INTEGER NOT NULL DEFAULT 0;
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, sql: V1 },
  { version: 2, sql: V2 },
  { version: 3, sql: V3 },
  { version: 4, sql: V4 },
  { version: 5, sql: V5 },
  { version: 6, sql: V6 },
  { version: 7, sql: V7 },
  { version: 8, sql: V8 },
  { version: 9, sql: V9 },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export function schemaVersion(db: SqlDriver): number {
  return db.prepare('PRAGMA user_version').get<{ user_version: number }>()?.user_version ?? 0;
}

/**
 * Applies what is missing, each step in its own immediate transaction; the version is re-read under the
 * lock, so two processes opening a fresh database at once migrate it exactly once.
 * Returns the version the database was at before.
 */
export function migrate(db: SqlDriver, migrations: readonly Migration[] = MIGRATIONS): number {
  const before = schemaVersion(db);
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  if (before > latest) throw new Error(`the history database is schema v${before}, newer than this Sandbar (v${latest}); update Sandbar`);
  for (const migration of migrations) {
    if (migration.version <= before) continue;
    db.transaction(() => {
      if (schemaVersion(db) >= migration.version) return;
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    });
  }
  return before;
}
