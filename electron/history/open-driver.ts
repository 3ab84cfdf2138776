// Picks the SQLite adapter for this process: node:sqlite inside Electron, better-sqlite3 elsewhere, each
// falling back to the other so a missing one degrades instead of disabling history.
import { openBetterSqlite } from './better-sqlite-driver.js';
import { openNodeSqlite } from './node-sqlite-driver.js';
import type { DriverFactory, DriverKind, SqlDriver } from './sqlite-driver.js';

export type DriverChoice = DriverKind | 'auto';

const OPENERS: Record<DriverKind, DriverFactory> = { 'better-sqlite3': openBetterSqlite, 'node:sqlite': openNodeSqlite };

export function driverOrder(choice: DriverChoice, versions: NodeJS.ProcessVersions = process.versions): DriverKind[] {
  if (choice !== 'auto') return [choice];
  return 'electron' in versions ? ['node:sqlite', 'better-sqlite3'] : ['better-sqlite3', 'node:sqlite'];
}

export async function openDriver(file: string, choice: DriverChoice = 'auto'): Promise<SqlDriver> {
  const errors: string[] = [];
  for (const kind of driverOrder(choice)) {
    try {
      return await OPENERS[kind](file);
    } catch (err) {
      // A corrupt file must surface as such, not as "no driver": only a missing module falls through.
      if (!isModuleMissing(err)) throw err;
      errors.push(`${kind}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new Error(`No SQLite driver could be loaded (${errors.join('; ')})`);
}

function isModuleMissing(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || code === 'ERR_UNKNOWN_BUILTIN_MODULE') return true;
  const message = err instanceof Error ? err.message : '';
  return /node:sqlite is not available|Could not locate the bindings file|NODE_MODULE_VERSION|did not self-register/.test(message);
}
