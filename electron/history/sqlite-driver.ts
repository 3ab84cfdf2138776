// The one small SQLite interface the history store is written against, with two adapters behind it:
// node:sqlite inside Electron (no native module to ship) and better-sqlite3 under plain Node.
export type SqlValue = string | number | bigint | null | Uint8Array;

/** Positional (`?`) values, or named values keyed without their prefix (`@id` binds `{ id }`). */
export type SqlParams = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

export type SqlRow = Record<string, SqlValue>;

export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

export interface SqlStatement {
  run(params?: SqlParams): RunResult;
  get<T = SqlRow>(params?: SqlParams): T | undefined;
  all<T = SqlRow>(params?: SqlParams): T[];
}

export type DriverKind = 'better-sqlite3' | 'node:sqlite';

export interface SqlDriver {
  readonly kind: DriverKind;
  readonly file: string;
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  /**
   * Runs `fn` in `BEGIN IMMEDIATE`: the write lock is taken up front, so two processes wait on the busy
   * timeout instead of failing on a read-to-write upgrade. A nested call joins the outer transaction.
   */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export type DriverFactory = (file: string) => Promise<SqlDriver>;

/** Shared by both adapters so nesting and rollback behave the same. */
export function immediateTransaction<T>(exec: (sql: string) => void, depth: { value: number }, fn: () => T): T {
  if (depth.value > 0) return fn();
  exec('BEGIN IMMEDIATE');
  depth.value++;
  try {
    const result = fn();
    exec('COMMIT');
    return result;
  } catch (err) {
    try {
      exec('ROLLBACK');
    } catch {
      // SQLite may already have rolled back (SQLITE_FULL, SQLITE_IOERR): the original error matters.
    }
    throw err;
  } finally {
    depth.value--;
  }
}

const CORRUPT_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);
/** Primary result codes: 11 SQLITE_CORRUPT, 26 SQLITE_NOTADB (node:sqlite reports numbers). */
const CORRUPT_NUMBERS = new Set([11, 26]);

/** True when SQLite says the file is damaged or is not a database at all, from either adapter. */
export function isCorruptionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: unknown; errcode?: unknown };
  if (typeof e.code === 'string' && [...CORRUPT_CODES].some((c) => (e.code as string).startsWith(c))) return true;
  if (typeof e.errcode === 'number' && CORRUPT_NUMBERS.has(e.errcode & 0xff)) return true;
  return /file is not a database|database disk image is malformed/i.test(e.message);
}
