// The SQLite driver contract, as a function of a driver factory: both adapters (better-sqlite3 and
// node:sqlite) must pass the same tests, so the store behaves the same in the CLI and in Electron.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { isCorruptionError, type DriverFactory, type SqlDriver } from '../../../electron/history/sqlite-driver.js';
import { tempDir } from './helpers.js';

export function driverContract(factory: DriverFactory): void {
  let dir: ReturnType<typeof tempDir>;
  let open: SqlDriver[];
  const connect = async (name = 'db.sqlite') => {
    const db = await factory(path.join(dir.dir, name));
    open.push(db);
    return db;
  };

  beforeEach(() => {
    dir = tempDir();
    open = [];
  });
  afterEach(() => {
    for (const db of open) db.close();
    dir.cleanup();
  });

  it('runs statements with positional and named parameters and reports changes and the rowid as numbers', async () => {
    const db = await connect();
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n REAL, b BLOB)');
    const positional = db.prepare('INSERT INTO t (name, n, b) VALUES (?, ?, ?)').run(['a', 1.5, null]);
    expect(positional).toEqual({ changes: 1, lastInsertRowid: 1 });
    const named = db.prepare('INSERT INTO t (name, n) VALUES (@name, @n + @n)').run({ name: 'b', n: 2 });
    expect(named).toEqual({ changes: 1, lastInsertRowid: 2 });
    db.prepare('INSERT INTO t (name, n) VALUES ($name, :n)').run({ name: 'c', n: 3 });
    expect(db.prepare('UPDATE t SET n = n + 1').run().changes).toBe(3);
  });

  it('get returns one row or undefined, all returns every row, in order', async () => {
    const db = await connect();
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('x'), ('y'), ('é✓😀')");
    expect({ ...db.prepare('SELECT id, name FROM t WHERE id = ?').get([2]) }).toEqual({ id: 2, name: 'y' });
    expect(db.prepare('SELECT id FROM t WHERE id = ?').get([99])).toBeUndefined();
    expect(db.prepare('SELECT name FROM t ORDER BY id').all().map((r) => r.name)).toEqual(['x', 'y', 'é✓😀']);
    expect(db.prepare('SELECT name FROM t WHERE id > ?').all([9])).toEqual([]);
  });

  it('round-trips null, integers, floats, big integers and blobs', async () => {
    const db = await connect();
    db.exec('CREATE TABLE t (v)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    for (const v of [null, 42, -7, 2.25, 9_007_199_254_740_991n, new Uint8Array([1, 2, 255])]) insert.run([v]);
    const values = db.prepare('SELECT v FROM t ORDER BY rowid').all<{ v: unknown }>().map((r) => r.v);
    expect(values.slice(0, 4)).toEqual([null, 42, -7, 2.25]);
    expect(Number(values[4])).toBe(9_007_199_254_740_991);
    expect([...(values[5] as Uint8Array)]).toEqual([1, 2, 255]);
  });

  it('commits a transaction, rolls it back on a throw (rethrowing), and joins nested calls to the outer one', async () => {
    const db = await connect();
    db.exec('CREATE TABLE t (v INTEGER)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    expect(db.transaction(() => (insert.run([1]), 'done'))).toBe('done');
    expect(() =>
      db.transaction(() => {
        insert.run([2]);
        db.transaction(() => insert.run([3]));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    db.transaction(() => db.transaction(() => insert.run([4])));
    expect(db.prepare('SELECT v FROM t ORDER BY v').all().map((r) => r.v)).toEqual([1, 4]);
  });

  it('takes the write lock at BEGIN (immediate), so another connection waits or is told busy', async () => {
    const a = await connect();
    const b = await connect();
    a.prepare('PRAGMA journal_mode = WAL').get();
    a.exec('CREATE TABLE t (v INTEGER)');
    b.exec('PRAGMA busy_timeout = 0');
    a.transaction(() => {
      expect(() => b.prepare('INSERT INTO t (v) VALUES (1)').run()).toThrow(/locked|busy/i);
      // WAL: readers are not blocked by the writer.
      expect(b.prepare('SELECT count(*) AS n FROM t').get()?.n).toBe(0);
    });
    b.prepare('INSERT INTO t (v) VALUES (2)').run();
    expect(a.prepare('SELECT count(*) AS n FROM t').get()?.n).toBe(1);
  });

  it('supports what the schema needs: WAL, FTS5 with snippet(), JSON, window functions, row values', async () => {
    const db = await connect();
    expect(db.prepare('PRAGMA journal_mode = WAL').get()?.journal_mode).toBe('wal');
    db.exec("CREATE VIRTUAL TABLE f USING fts5(body); INSERT INTO f (body) VALUES ('the quick brown fox')");
    expect(db.prepare("SELECT snippet(f, 0, '[', ']', '…', 4) AS s FROM f WHERE f MATCH 'brown'").get()?.s).toContain('[brown]');
    expect(db.prepare(`SELECT count(*) AS n FROM json_each('["a","b"]')`).get()?.n).toBe(2);
    expect(db.prepare('SELECT sum(x) OVER (ORDER BY x) AS s FROM (SELECT 1 AS x UNION ALL SELECT 2) ORDER BY s').all().map((r) => r.s)).toEqual([1, 3]);
    expect(db.prepare('SELECT (1, 2) < (1, 3) AS lt').get()?.lt).toBe(1);
  });

  it('reports a file that is not a database as corruption', async () => {
    writeFileSync(path.join(dir.dir, 'junk.db'), 'this is not a database, just some text that is long enough'.repeat(40));
    let caught: unknown;
    try {
      const db = await connect('junk.db');
      db.prepare('SELECT count(*) FROM sqlite_master').get();
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(Error);
    expect(isCorruptionError(caught)).toBe(true);
    expect(isCorruptionError(new Error('no such table: x'))).toBe(false);
  });

  it('throws SQL errors as Errors and closes idempotently', async () => {
    const db = await connect();
    expect(() => db.exec('NOT SQL')).toThrow(Error);
    expect(() => db.prepare('SELECT * FROM missing')).toThrow(/no such table/);
    db.close();
    expect(() => db.close()).not.toThrow();
  });
}
