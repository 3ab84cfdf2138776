// Retention: exactly the runs past the age limit, then exactly the oldest runs past the size limit; at
// start and on a timer; and "clear history". Deleted runs leave nothing behind in the side tables.
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/history/history-store.js';
import { PRUNE_BATCH } from '../../../electron/history/history-retention.js';
import { assertSearchIndexMatches, memoryLogger, openStore, rawDriver, recordRun, runEvents, tempDir, TEST_DRIVER } from './helpers.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 5, 1);
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
  const store = await openStore(file, { now: () => NOW, retention: { maxAgeDays: 0, maxBytes: 0 }, ...options });
  stores.push(store);
  return store;
}

async function rawCounts() {
  const db = await rawDriver(file);
  const n = (sql: string) => db.prepare(sql).get<{ n: number }>()!.n;
  const counts = {
    executions: n('SELECT count(*) AS n FROM executions'),
    toolCalls: n('SELECT count(*) AS n FROM tool_calls'),
    servers: n('SELECT count(*) AS n FROM execution_servers'),
    fts: n("SELECT count(*) AS n FROM executions_fts WHERE executions_fts MATCH 'marker'"),
    freePages: n('SELECT freelist_count AS n FROM pragma_freelist_count'),
  };
  db.close();
  return counts;
}

const withExtras = (queuedAt: number, tag: string) => ({
  queuedAt,
  code: `print("marker ${tag}")`,
  stdout: 'marker\n',
  servers: ['fs'],
  toolCalls: [{ server: 'fs', tool: 'read', startedAt: queuedAt, durationMs: 1, bytesIn: 1, bytesOut: 1, isError: false }],
});

describe('by age', () => {
  it('deletes exactly the runs queued before the cutoff, and their tool calls, servers and search entries', async () => {
    const store = await open({ retention: { maxAgeDays: 30, maxBytes: 0 } });
    const cutoff = NOW - 30 * DAY;
    const kept = [NOW - DAY, cutoff + 1, cutoff].map((t, i) => recordRun(store, withExtras(t, `kept${i}`)));
    const gone = [cutoff - 1, NOW - 31 * DAY, NOW - 400 * DAY].map((t, i) => recordRun(store, withExtras(t, `gone${i}`)));
    expect(store.list().items).toHaveLength(6);
    expect(store.prune()).toEqual({ byAge: 3, bySize: 0 });
    expect(new Set(store.list().items.map((i) => i.id))).toEqual(new Set(kept));
    for (const id of gone) expect(store.get(id)).toBeNull();
    expect(await rawCounts()).toMatchObject({ executions: 3, toolCalls: 3, servers: 3, fts: 3 });
    await assertSearchIndexMatches(file);
    expect(store.prune()).toEqual({ byAge: 0, bySize: 0 });
  });

  it('never deletes a run still in flight, however old', async () => {
    const store = await open({ retention: { maxAgeDays: 1, maxBytes: 0 } });
    const [queued, started] = runEvents({ queuedAt: NOW - 10 * DAY });
    store.record(queued!);
    store.record(started!);
    recordRun(store, { queuedAt: NOW - 10 * DAY });
    expect(store.prune()).toEqual({ byAge: 1, bySize: 0 });
    expect(store.list().items.map((i) => i.status)).toEqual(['running']);
  });
});

describe('by size', () => {
  it('keeps the newest runs whose sizes add up to at most the limit and deletes every older one', async () => {
    const store = await open();
    const ids = Array.from({ length: 10 }, (_, i) => recordRun(store, { queuedAt: NOW - (10 - i) * 1000, code: `print(${i})`, stdout: 'o'.repeat(1000) }));
    const size = store.totalBytes() / 10;
    expect(Number.isInteger(size)).toBe(true);
    expect(size).toBe(256 + 'print(0)'.length + '[]'.length + 1000);
    stores.pop()!.dispose();

    const exact = await open({ retention: { maxAgeDays: 0, maxBytes: 4 * size } });
    expect(exact.list().items.map((i) => i.id)).toEqual(ids.slice(6).reverse());
    expect(exact.totalBytes()).toBe(4 * size);

    expect(exact.prune()).toEqual({ byAge: 0, bySize: 0 });
    recordRun(exact, { queuedAt: NOW, code: 'print(0)', stdout: 'o'.repeat(1000) });
    expect(exact.prune()).toEqual({ byAge: 0, bySize: 1 });
    expect(exact.list().items.map((i) => i.id)).not.toContain(ids[6]);
    expect(exact.totalBytes()).toBe(4 * size);
    await assertSearchIndexMatches(file);
  });

  it('counts tool calls in a run’s size; age and size apply together', async () => {
    const store = await open();
    const id = recordRun(store, { queuedAt: NOW, code: 'p', toolCalls: [{ server: 's', tool: 't', startedAt: NOW, durationMs: 1, bytesIn: 0, bytesOut: 0, isError: true, error: 'abc' }] });
    // Row, code, servers JSON, then the call: its fixed cost, server and tool names, and error text.
    expect(store.totalBytes()).toBe(256 + 1 + 2 + 96 + 1 + 1 + 3);
    recordRun(store, { queuedAt: NOW - 5 * DAY, code: 'x'.repeat(5000) });
    recordRun(store, { queuedAt: NOW - 1000, code: 'y' });
    stores.pop()!.dispose();
    const both = await open({ retention: { maxAgeDays: 2, maxBytes: 256 * 2 + 200 } });
    expect(both.list().items.map((i) => i.id)).toEqual([id, expect.any(String)]);
  });
});

describe('schedule and clear', () => {
  it('runs at start and again on its interval', async () => {
    let now = NOW;
    const first = await open({ now: () => now });
    recordRun(first, { queuedAt: NOW - 2 * DAY });
    recordRun(first, { queuedAt: NOW - 10 });
    stores.pop()!.dispose();
    const store = await open({ now: () => now, retention: { maxAgeDays: 1, maxBytes: 0 }, pruneIntervalMs: 20 });
    expect(store.list().items).toHaveLength(1);
    now += 2 * DAY;
    await new Promise((r) => setTimeout(r, 120));
    expect(store.list().items).toHaveLength(0);
  });

  it('clears every finished run, keeps runs in flight, and gives the space back, with another process attached', async () => {
    const store = await open();
    const other = await open();
    for (let i = 0; i < 200; i++) recordRun(store, { ...withExtras(NOW - i, String(i)), stdout: 'marker '.repeat(2000) });
    const [queued] = runEvents({ queuedAt: NOW });
    store.record(queued!);
    expect(store.clear()).toBe(200);
    expect(store.list().items.map((i) => i.status)).toEqual(['queued']);
    expect(await rawCounts()).toMatchObject({ executions: 1, toolCalls: 0, servers: 0, fts: 0, freePages: 0 });
    expect(statSync(file).size).toBeLessThan(200 * 1024);
    expect(other.list().items).toHaveLength(1);
    // The run in flight finishes into a consistent index, and the per-row cleanup is back in place.
    for (const e of runEvents({ id: queued!.type === 'queued' ? queued!.execution.id : '', queuedAt: NOW, stdout: 'marker' }).slice(1)) store.record(e);
    recordRun(store, withExtras(NOW - 40 * DAY, 'old'));
    await assertSearchIndexMatches(file);
    expect(store.list({ search: 'marker' }).items).toHaveLength(2);
    stores.pop()!.dispose();
    await open({ retention: { maxAgeDays: 30, maxBytes: 0 } });
    expect(await rawCounts()).toMatchObject({ executions: 1, toolCalls: 0, servers: 0, fts: 1 });
    await assertSearchIndexMatches(file);
  });

  it('works through a backlog in the background, a batch at a time, without holding up start()', async () => {
    const backlog = 2 * PRUNE_BATCH + 10;
    const seed = await open();
    for (let i = 0; i < backlog; i++) recordRun(seed, withExtras(NOW - 40 * DAY + i, String(i)));
    recordRun(seed, withExtras(NOW, 'recent'));
    stores.pop()!.dispose();
    const logger = memoryLogger();
    const store = new HistoryStore({ file, logger, driver: TEST_DRIVER, now: () => NOW, retention: { maxAgeDays: 30, maxBytes: 0 } });
    stores.push(store);
    await store.start();
    expect(store.pruning).not.toBeNull();
    // start() returned after one batch; the rest follows between other work.
    expect(store.list({ limit: 500 }).items.length).toBe(backlog - PRUNE_BATCH + 1);
    recordRun(store, { queuedAt: NOW });
    expect(await store.pruning).toEqual({ byAge: backlog, bySize: 0 });
    expect(store.pruning).toBeNull();
    expect(store.list().items).toHaveLength(2);
    expect(logger.lines).toContain(`info history: retention deleted ${backlog} run(s) by age and 0 by size`);
  });
});
