// A session's calls in the history: each row keeps its session id and call number, listings and details
// return them (History groups by them), and plain runs have none.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../../electron/history/history-store.js';
import { openStore, rawDriver, recordRun, tempDir } from './helpers.js';

let dir: ReturnType<typeof tempDir>;
let store: HistoryStore;

beforeEach(async () => {
  dir = tempDir();
  store = await openStore(path.join(dir.dir, 'history.db'));
});
afterEach(() => {
  store.dispose();
  dir.cleanup();
});

describe('session calls in the history', () => {
  it('records {id, call} per session call and returns it on list items, search hits and details', async () => {
    const session = 'ab'.repeat(16);
    const first = recordRun(store, { code: 'x = 1', session: { id: session, call: 1 }, queuedAt: 1000 });
    const second = recordRun(store, { code: 'print(x)', stdout: '1\n', session: { id: session, call: 2 }, queuedAt: 2000 });
    const plain = recordRun(store, { code: 'print(2)', queuedAt: 3000 });
    const byId = Object.fromEntries(store.list().items.map((item) => [item.id, item.session]));
    expect(byId).toEqual({ [first]: { id: session, call: 1 }, [second]: { id: session, call: 2 }, [plain]: undefined });
    expect(store.get(second)?.session).toEqual({ id: session, call: 2 });
    expect(store.get(plain)).not.toHaveProperty('session');
    expect(store.list({ search: 'print' }).items.find((i) => i.id === second)?.session).toEqual({ id: session, call: 2 });
    const db = await rawDriver(path.join(dir.dir, 'history.db'));
    try {
      expect(db.prepare('SELECT session_id, session_call FROM executions WHERE id = ?').get([first])).toEqual({ session_id: session, session_call: 1 });
    } finally {
      db.close();
    }
  });
});
