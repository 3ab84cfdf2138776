// Opening: a corrupt file is moved aside and a fresh database used (health says so); a v1 database is
// migrated in place with its rows kept; a database from a newer Sandbar is left alone.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../../electron/history/history-store.js';
import { SCHEMA_VERSION } from '../../../electron/history/migrations.js';
import { checkMarkerOf } from '../../../electron/history/open-database.js';
import type { DriverFactory, SqlParams } from '../../../electron/history/sqlite-driver.js';
import { assertSearchIndexMatches, memoryLogger, openStore, rawDriver, recordRun, tempDir } from './helpers.js';

let dir: ReturnType<typeof tempDir>;
let file: string;
let stores: HistoryStore[];

beforeEach(() => {
  dir = tempDir();
  file = path.join(dir.dir, 'history.db');
  stores = [];
});
afterEach(() => {
  for (const s of stores) s.dispose();
  dir.cleanup();
});

async function open(options: Parameters<typeof openStore>[1] = {}) {
  const store = await openStore(file, options);
  stores.push(store);
  return store;
}

const NOW = Date.UTC(2026, 2, 3, 4, 5, 6, 789);

describe('a corrupt database', () => {
  it('that is not a database at all is moved aside with a timestamp, and a fresh one works', async () => {
    const junk = 'PK\u0003\u0004 definitely not sqlite '.repeat(200);
    writeFileSync(file, junk);
    writeFileSync(`${file}-wal`, 'stale wal');
    const logger = memoryLogger();
    const store = await open({ logger, now: () => NOW });
    const movedTo = `${file}.corrupt-2026-03-03T04-05-06-789Z`;
    expect(store.recovered).toEqual({ movedTo, reason: expect.stringMatching(/not a database/) });
    expect(store.health()).toMatchObject({ available: true, recovered: store.recovered, error: null });
    expect(readFileSync(movedTo, 'utf8')).toBe(junk);
    // The damaged file's journal never reaches the fresh database.
    expect(existsSync(`${file}-wal`) && readFileSync(`${file}-wal`, 'utf8') === 'stale wal').toBe(false);
    expect(logger.lines.some((l) => l.startsWith('warn history database was damaged'))).toBe(true);
    const id = recordRun(store, { stdout: 'after recovery' });
    expect(store.get(id)!.stdout).toBe('after recovery');
  });

  it('whose pages are damaged is found by a full check once a write has hit the damage', async () => {
    const first = await open();
    for (let i = 0; i < 300; i++) recordRun(first, { code: `print(${i})`, stdout: `line ${i}\n`.repeat(50) });
    first.dispose();
    stores = [];
    // Scribble over pages in the second half of the file, as a failing disk would: data pages only. The
    // header and the schema (its first pages, written when the database was created) stay intact; damage
    // there is found at open.
    const bytes = readFileSync(file);
    const half = Math.floor(bytes.length / 4096 / 2);
    bytes.fill(0x5a, half * 4096, (half + 32) * 4096);
    writeFileSync(file, bytes);
    // Opening stays cheap (no full check) until a write has seen damage.
    const unaware = await open();
    expect(unaware.recovered).toBeNull();
    unaware.dispose();
    stores = [];
    writeFileSync(checkMarkerOf(file), 'a write failed with SQLITE_CORRUPT');
    const store = await open();
    expect(store.recovered?.reason).toMatch(/integrity check failed|malformed|vtable|corrupt/i);
    expect(existsSync(checkMarkerOf(file))).toBe(false);
    expect(store.list().items).toEqual([]);
  });

  it('a write that hits corruption is logged, not thrown, and leaves the marker that makes the next start check', async () => {
    let failing = false;
    const corrupt = () => Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    const flaky: DriverFactory = async (f) => {
      const db = await rawDriver(f);
      const prepare = db.prepare.bind(db);
      return Object.assign(db, {
        prepare: (sql: string) => {
          const stmt = prepare(sql);
          return { ...stmt, get: stmt.get.bind(stmt), all: stmt.all.bind(stmt), run: (p?: SqlParams) => (failing ? (() => { throw corrupt(); })() : stmt.run(p)) };
        },
      });
    };
    const logger = memoryLogger();
    const store = await open({ driver: flaky, logger });
    failing = true;
    expect(() => recordRun(store)).not.toThrow();
    expect(store.health()).toMatchObject({ available: true, writeErrors: 3, error: expect.stringMatching(/finished event failed: database disk image is malformed/) });
    expect(readFileSync(checkMarkerOf(file), 'utf8')).toMatch(/malformed/);
    store.dispose();
    stores = [];
    // The file is in fact sound: the check passes, nothing is moved, the marker goes.
    const next = await open();
    expect(next.recovered).toBeNull();
    expect(existsSync(checkMarkerOf(file))).toBe(false);
  });
});

/** Schema v1 exactly as migration 1 created it, written out by hand the way an old Sandbar left it. */
const V1_SQL = `
CREATE TABLE executions (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, client_name TEXT NOT NULL, client_version TEXT,
  transport TEXT, status TEXT NOT NULL, exit_reason TEXT, exit_code INTEGER, queued_at INTEGER NOT NULL, started_at INTEGER,
  finished_at INTEGER, duration_ms INTEGER, timeout_sec INTEGER, stdout_truncated INTEGER NOT NULL DEFAULT 0,
  stderr_truncated INTEGER NOT NULL DEFAULT 0, size_bytes INTEGER NOT NULL DEFAULT 0, container_name TEXT, error TEXT,
  servers TEXT NOT NULL DEFAULT '[]', limits TEXT, code TEXT NOT NULL, stdout TEXT NOT NULL DEFAULT '', stderr TEXT NOT NULL DEFAULT '');
CREATE INDEX executions_queued ON executions (queued_at, seq);
CREATE INDEX executions_status ON executions (status, queued_at, seq);
CREATE TABLE tool_calls (id INTEGER PRIMARY KEY, execution_id TEXT NOT NULL, server TEXT NOT NULL, tool TEXT NOT NULL,
  started_at INTEGER NOT NULL, duration_ms INTEGER NOT NULL, is_error INTEGER NOT NULL, bytes_in INTEGER NOT NULL,
  bytes_out INTEGER NOT NULL, error TEXT);
CREATE INDEX tool_calls_execution ON tool_calls (execution_id);
INSERT INTO executions (id, client_name, status, exit_reason, exit_code, queued_at, started_at, finished_at, duration_ms, servers, code, stdout, size_bytes)
  VALUES ('old-1', 'cursor', 'success', 'success', 0, ${NOW - 3000}, ${NOW - 2999}, ${NOW - 2900}, 99, '["fs","git"]', 'import numpy', 'wombat\n', 300),
         ('old-2', 'cli', 'running', NULL, NULL, ${NOW - 2000}, ${NOW - 1999}, NULL, NULL, '[]', 'while True: pass', '', 280);
INSERT INTO tool_calls (execution_id, server, tool, started_at, duration_ms, is_error, bytes_in, bytes_out) VALUES ('old-1', 'fs', 'read', ${NOW - 2950}, 5, 0, 10, 20);
PRAGMA user_version = 1;
`;

describe('migrations', () => {
  it(`take a v1 database to v${SCHEMA_VERSION}, keeping its rows, indexing them for search and the server filter`, async () => {
    const raw = await rawDriver(file);
    raw.exec(V1_SQL);
    raw.close();
    const logger = memoryLogger();
    const store = await open({ logger, now: () => NOW });
    expect(store.recovered).toBeNull();
    expect(logger.lines).toContain('info history database migrated from schema v1');
    const check = await rawDriver(file);
    expect(check.prepare('PRAGMA user_version').get()?.user_version).toBe(SCHEMA_VERSION);
    check.close();
    expect(store.get('old-1')).toMatchObject({ client: { name: 'cursor' }, code: 'import numpy', stdout: 'wombat\n', servers: ['fs', 'git'], toolCallCount: 1 });
    // The v1 run left running had no recorded owner: nobody can finish it.
    expect(store.get('old-2')).toMatchObject({ status: 'interrupted', error: 'Sandbar stopped before this run finished' });
    expect(store.list({ search: 'wombat' }).items.map((i) => i.id)).toEqual(['old-1']);
    expect(store.list({ search: 'numpy' }).items.map((i) => i.id)).toEqual(['old-1']);
    expect(store.list({ server: 'git' }).items.map((i) => i.id)).toEqual(['old-1']);
    await assertSearchIndexMatches(file);
    // New rows go in alongside.
    recordRun(store, { code: 'print("new")', queuedAt: NOW });
    expect(store.list().items.map((i) => i.id).slice(1)).toEqual(['old-2', 'old-1']);
  });

  it('leave a database from a newer Sandbar untouched and report history unavailable', async () => {
    const raw = await rawDriver(file);
    raw.exec('CREATE TABLE future (x); PRAGMA user_version = 99');
    raw.close();
    const store = await open();
    expect(store.health()).toMatchObject({ available: false, recovered: null, error: expect.stringMatching(/schema v99, newer than this Sandbar/) });
    expect(readdirSync(dir.dir).filter((f) => f.includes('corrupt'))).toEqual([]);
    expect(() => store.list()).toThrow(/newer than this Sandbar/);
    expect(() => recordRun(store)).not.toThrow();
  });

  it('report history unavailable, without moving anything, when the folder cannot be used', async () => {
    writeFileSync(path.join(dir.dir, 'not-a-folder'), 'x');
    const store = await openStore(path.join(dir.dir, 'not-a-folder', 'history.db'));
    expect(store.health()).toMatchObject({ available: false, recovered: null, error: expect.stringMatching(/^History is unavailable: .*(EEXIST|ENOTDIR)/) });
    expect(() => recordRun(store)).not.toThrow();
    expect(() => store.countByStatus()).toThrow(/History is unavailable/);
    store.dispose();
  });

  it('migrate a fresh database once even when two stores open it at the same moment', async () => {
    const [a, b] = await Promise.all([open(), open()]);
    recordRun(a);
    recordRun(b);
    expect(a.list().items).toHaveLength(2);
  });
});
