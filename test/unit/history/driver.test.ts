// The driver contract against both adapters; node:sqlite only where this Node has it (22.5 and later).
import { describe, expect, it } from 'vitest';
import { openBetterSqlite } from '../../../electron/history/better-sqlite-driver.js';
import { loadNodeSqlite, openNodeSqlite } from '../../../electron/history/node-sqlite-driver.js';
import { driverOrder, openDriver } from '../../../electron/history/open-driver.js';
import { driverContract } from './driver-contract.js';

let hasNodeSqlite = false;
try {
  await import('node:sqlite' as string);
  hasNodeSqlite = true;
} catch {
  hasNodeSqlite = false;
}

// The Node 22 pass (test/node22/history-suites.mjs) is about node:sqlite; better-sqlite3 is built for Node 20.
const nodeSqlitePass = process.env.SANDBAR_HISTORY_TEST_DRIVER === 'node:sqlite';
if (nodeSqlitePass && !hasNodeSqlite) throw new Error(`the node:sqlite pass needs Node 22.5 or later; this is ${process.version}`);

describe.skipIf(nodeSqlitePass)('driver contract: better-sqlite3', () => driverContract(openBetterSqlite));

describe.skipIf(!hasNodeSqlite)('driver contract: node:sqlite', () => driverContract(openNodeSqlite));

describe('driver choice', () => {
  it('prefers node:sqlite inside Electron and better-sqlite3 under plain Node, each falling back to the other', () => {
    expect(driverOrder('auto', { ...process.versions, electron: '37.0.0' })).toEqual(['node:sqlite', 'better-sqlite3']);
    const { electron: _e, ...plain } = { ...process.versions, electron: undefined };
    expect(driverOrder('auto', plain as NodeJS.ProcessVersions)).toEqual(['better-sqlite3', 'node:sqlite']);
    expect(driverOrder('better-sqlite3')).toEqual(['better-sqlite3']);
  });

  it('reports whether node:sqlite loads, and auto mode opens a working driver either way', async () => {
    expect((await loadNodeSqlite()) !== null).toBe(hasNodeSqlite);
    const db = await openDriver(':memory:');
    expect(db.prepare('SELECT 1 AS one').get()?.one).toBe(1);
    db.close();
  });

  it.skipIf(hasNodeSqlite)('says plainly when node:sqlite is missing', async () => {
    await expect(openNodeSqlite(':memory:')).rejects.toThrow(/node:sqlite is not available/);
    await expect(openDriver(':memory:', 'node:sqlite')).rejects.toThrow(/No SQLite driver could be loaded/);
  });
});
