// better-sqlite3 behind the driver interface: what the CLI, `sandbar stdio`/`serve` and the tests use.
import type Database from 'better-sqlite3';
import { immediateTransaction, type RunResult, type SqlDriver, type SqlParams, type SqlStatement } from './sqlite-driver.js';

type Native = Database.Database;

function bind(params: SqlParams | undefined): unknown[] {
  if (params === undefined) return [];
  return Array.isArray(params) ? params : [params];
}

class BetterStatement implements SqlStatement {
  constructor(private readonly stmt: Database.Statement) {}

  run(params?: SqlParams): RunResult {
    const r = this.stmt.run(...bind(params));
    return { changes: r.changes, lastInsertRowid: Number(r.lastInsertRowid) };
  }

  get<T>(params?: SqlParams): T | undefined {
    return this.stmt.get(...bind(params)) as T | undefined;
  }

  all<T>(params?: SqlParams): T[] {
    return this.stmt.all(...bind(params)) as T[];
  }
}

export class BetterSqliteDriver implements SqlDriver {
  readonly kind = 'better-sqlite3' as const;
  private readonly depth = { value: 0 };

  constructor(
    private readonly db: Native,
    readonly file: string,
  ) {}

  exec(sql: string): void {
    this.db.exec(sql);
  }

  prepare(sql: string): SqlStatement {
    return new BetterStatement(this.db.prepare(sql));
  }

  transaction<T>(fn: () => T): T {
    return immediateTransaction((sql) => this.db.exec(sql), this.depth, fn);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Loaded lazily so that a process which never opens history (or runs in Electron) never loads the native module. */
export async function openBetterSqlite(file: string): Promise<SqlDriver> {
  const { default: Database } = await import('better-sqlite3');
  return new BetterSqliteDriver(new Database(file, { timeout: 5000 }), file);
}
