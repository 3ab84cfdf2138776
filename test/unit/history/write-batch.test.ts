// History writes leave the hot path (write-batch.ts): a run's events are written together on the next turn,
// yet no read ever misses them, and closing the store writes what still waits.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../../electron/history/history-store.js';
import type { EngineEvent } from '../../../shared/execution.js';
import { openStore, rawDriver, runEvents, tempDir } from './helpers.js';

let dir: ReturnType<typeof tempDir>;
let file: string;
let store: HistoryStore;

beforeEach(async () => {
  dir = tempDir();
  file = path.join(dir.dir, 'history.db');
  store = await openStore(file);
});
afterEach(() => {
  store.dispose();
  dir.cleanup();
});

/** What another connection (another process) sees in the file right now. */
async function statusesOnDisk(): Promise<Record<string, string>> {
  const db = await rawDriver(file);
  try {
    return Object.fromEntries(db.prepare('SELECT id, status FROM executions').all().map((r) => [r.id as string, r.status as string]));
  } finally {
    db.close();
  }
}

const record = (events: EngineEvent[]) => {
  for (const e of events) store.record(e);
  return (events[0] as Extract<EngineEvent, { type: 'queued' }>).execution.id;
};

describe('batched history writes', () => {
  it('are in the file one turn later, all of them, not during the call that recorded them', async () => {
    const a = record(runEvents({ stdout: 'a\n' }));
    const b = record(runEvents({ stdout: 'b\n' }));
    expect(await statusesOnDisk()).toEqual({});
    await new Promise((r) => setImmediate(r));
    expect(await statusesOnDisk()).toEqual({ [a]: 'success', [b]: 'success' });
  });

  it('are seen by every read of the store at once, before their turn', () => {
    const id = record(runEvents({ stdout: 'seen\n' }));
    expect(store.get(id)).toMatchObject({ status: 'success', stdout: 'seen\n' });
    const other = record(runEvents({ stdout: 'counted\n' }));
    expect(store.countByStatus()).toMatchObject({ success: 2 });
    expect(store.list().items.map((i) => i.id)).toContain(other);
  });

  it('are written by dispose when the turn never came', async () => {
    const id = record(runEvents({ stdout: 'closing\n' }));
    store.dispose();
    expect(await statusesOnDisk()).toEqual({ [id]: 'success' });
    store = await openStore(file);
  });

  it('keep the limits in force when the run was queued, even if they change before the write', async () => {
    let memory = '256m';
    store.dispose();
    store = await openStore(file, { currentLimits: () => ({ ...runEventsLimits(), memory }) });
    const [queued] = runEvents();
    store.record(queued!);
    memory = '2g';
    const id = (queued as Extract<EngineEvent, { type: 'queued' }>).execution.id;
    expect(store.get(id)?.limits?.memory).toBe('256m');
  });

  it('never queue output (the result carries it whole)', () => {
    const events = runEvents({ stdout: 'x'.repeat(1000) });
    const output = events.filter((e) => e.type === 'output');
    expect(output).toHaveLength(1);
    const batch = (store as unknown as { batch: { size: number } }).batch;
    store.record(output[0]!);
    expect(batch.size).toBe(0);
  });
});

function runEventsLimits() {
  const finished = runEvents().find((e) => e.type === 'finished') as Extract<EngineEvent, { type: 'finished' }>;
  return finished.result.limits;
}
