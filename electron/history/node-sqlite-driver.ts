// node:sqlite behind the driver interface: what the packaged Electron app uses, so it ships no native
// module. Node 20 has no node:sqlite (nor its types), so the module is described locally and loaded
// only when asked for; this file compiles and loads everywhere.
import { immediateTransaction, type RunResult, type SqlDriver, type SqlParams, type SqlStatement } from './sqlite-driver.js';

/** The parts of node:sqlite this adapter uses (Node >= 22.5). */
interface NodeSqliteStatement {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

interface NodeSqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeSqliteStatement;
  close(): void;
  readonly isOpen?: boolean;
}

interface NodeSqliteModule {
  DatabaseSync: new (path: string, options?: { enableForeignKeyConstraints?: boolean }) => NodeSqliteDatabase;
}

function bind(params: SqlParams | undefined): unknown[] {
  if (params === undefined) return [];
  return Array.isArray(params) ? params : [params];
}

class NodeStatement implements SqlStatement {
  constructor(private readonly stmt: NodeSqliteStatement) {}

  run(params?: SqlParams): RunResult {
    const r = this.stmt.run(...bind(params));
    return { changes: Number(r.changes), lastInsertRowid: Number(r.lastInsertRowid) };
  }

  get<T>(params?: SqlParams): T | undefined {
    return this.stmt.get(...bind(params)) as T | undefined;
  }

  all<T>(params?: SqlParams): T[] {
    return this.stmt.all(...bind(params)) as T[];
  }
}

export class NodeSqliteDriver implements SqlDriver {
  readonly kind = 'node:sqlite' as const;
  private readonly depth = { value: 0 };
  private closed = false;

  constructor(
    private readonly db: NodeSqliteDatabase,
    readonly file: string,
  ) {}

  exec(sql: string): void {
    this.db.exec(sql);
  }

  prepare(sql: string): SqlStatement {
    return new NodeStatement(this.db.prepare(sql));
  }

  transaction<T>(fn: () => T): T {
    return immediateTransaction((sql) => this.db.exec(sql), this.depth, fn);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}

/** Resolves to null where this Node has no node:sqlite (Node 20, or an Electron built without it). */
export async function loadNodeSqlite(): Promise<NodeSqliteModule | null> {
  // A variable specifier keeps TypeScript (and bundlers) from resolving a module Node 20 lacks.
  const specifier = 'node:sqlite';
  try {
    return (await import(/* @vite-ignore */ specifier)) as NodeSqliteModule;
  } catch {
    return null;
  }
}

export async function openNodeSqlite(file: string): Promise<SqlDriver> {
  const sqlite = await loadNodeSqlite();
  if (!sqlite) throw new Error(`node:sqlite is not available in Node ${process.versions.node}`);
  // Foreign keys stay off, as in better-sqlite3: the schema cleans up with triggers instead.
  return new NodeSqliteDriver(new sqlite.DatabaseSync(file, { enableForeignKeyConstraints: false }), file);
}
