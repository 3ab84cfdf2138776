// Opens the history database ready for use: busy timeout, WAL, migrations. A damaged file is moved aside
// with a timestamp (never deleted: it may still be rescued by hand) and a fresh database takes its place.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, tightenFile } from '../settings/private-home.js';
import { migrate } from './migrations.js';
import { isCorruptionError, type DriverFactory, type SqlDriver } from './sqlite-driver.js';

export const BUSY_TIMEOUT_MS = 5000;

export interface Recovery {
  movedTo: string;
  reason: string;
}

export interface OpenedDatabase {
  db: SqlDriver;
  recovered: Recovery | null;
  /** The schema version found on disk (0 for a new file). */
  migratedFrom: number;
}

class DamagedDatabase extends Error {}

/** Left beside the database when a write hit corruption: the next start then runs a full check. */
export const checkMarkerOf = (file: string) => `${file}.needs-check`;

function configure(db: SqlDriver, check: boolean): number {
  // First, so every later statement (journal mode and migrations included) waits for other processes.
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Reading the schema is what fails on a file that is not a database.
  db.prepare('SELECT count(*) AS n FROM sqlite_master').get();
  db.prepare('PRAGMA journal_mode = WAL').get();
  db.exec('PRAGMA synchronous = NORMAL');
  if (check) {
    const rows = db.prepare('PRAGMA quick_check').all<{ quick_check: string }>();
    if (rows.length !== 1 || rows[0]?.quick_check !== 'ok') {
      throw new DamagedDatabase(`integrity check failed: ${rows.slice(0, 3).map((r) => r.quick_check).join('; ')}`);
    }
  }
  return migrate(db);
}

function moveAside(file: string, now: Date): string {
  const movedTo = `${file}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, movedTo);
  // The journal files belong to the damaged database; a fresh one must not replay them.
  if (existsSync(`${file}-wal`)) renameSync(`${file}-wal`, `${movedTo}-wal`);
  rmSync(`${file}-shm`, { force: true });
  return movedTo;
}

/**
 * Every run's code and output live here: owner-only. SQLite gives the -wal and -shm files the database's
 * own mode, so creating the database 0600 (and tightening an older, looser one) covers all three.
 */
function makePrivate(file: string): void {
  writeFileSync(file, '', { flag: 'a', mode: PRIVATE_FILE_MODE });
  for (const part of [file, `${file}-wal`, `${file}-shm`]) tightenFile(part);
}

export async function openDatabase(file: string, factory: DriverFactory, now: () => Date = () => new Date()): Promise<OpenedDatabase> {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const marker = checkMarkerOf(file);
  let db: SqlDriver | undefined;
  try {
    makePrivate(file);
    db = await factory(file);
    const migratedFrom = configure(db, existsSync(marker));
    rmSync(marker, { force: true });
    return { db, recovered: null, migratedFrom };
  } catch (err) {
    db?.close();
    if (!(err instanceof DamagedDatabase) && !isCorruptionError(err)) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    const movedTo = moveAside(file, now());
    rmSync(marker, { force: true });
    makePrivate(file);
    const fresh = await factory(file);
    try {
      return { db: fresh, recovered: { movedTo, reason }, migratedFrom: configure(fresh, false) };
    } catch (freshErr) {
      fresh.close();
      throw freshErr;
    }
  }
}
