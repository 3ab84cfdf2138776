// A run's figures, displays and files in the history (issue 14): stored with the run, listed without their
// bytes, served whole by name, counted in the run's size, and gone with the run (retention, clear).
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../../electron/history/history-store.js';
import { ARTIFACT_OVERHEAD_BYTES } from '../../../electron/history/history-writer.js';
import type { Artifact } from '../../../shared/artifacts.js';
import { openStore, rawDriver, recordRun, runEvents, tempDir } from './helpers.js';

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
  const store = await openStore(file, { retention: { maxAgeDays: 0, maxBytes: 0 }, ...options });
  stores.push(store);
  return store;
}

function randomBytes(size: number, seed: number): Uint8Array {
  const data = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) data[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  return data;
}

const figure = (n: number, size = 5000): Artifact => ({
  name: `figure-${n}.png`,
  mimeType: 'image/png',
  size,
  source: 'figure',
  width: 1200,
  height: 800,
  title: `Sales ${n}`,
  data: randomBytes(size, n),
});
const csv: Artifact = { name: 'out/report.csv', mimeType: 'text/csv', size: 7, source: 'file', data: new TextEncoder().encode('a,b\n1,2') };

async function artifactRows(): Promise<number> {
  const db = await rawDriver(file);
  const n = db.prepare('SELECT count(*) AS n FROM artifacts').get<{ n: number }>()!.n;
  db.close();
  return n;
}

describe('artifacts in the history', () => {
  it('lists a run’s artifacts in order without their bytes, and serves each one whole by name', async () => {
    const store = await open();
    const artifacts = [figure(1), figure(2), csv];
    const id = recordRun(store, { artifacts, stdout: 'ok\n' });
    const detail = store.get(id)!;
    expect(detail.artifacts).toEqual([
      { name: 'figure-1.png', mimeType: 'image/png', size: 5000, source: 'figure', width: 1200, height: 800, title: 'Sales 1' },
      { name: 'figure-2.png', mimeType: 'image/png', size: 5000, source: 'figure', width: 1200, height: 800, title: 'Sales 2' },
      { name: 'out/report.csv', mimeType: 'text/csv', size: 7, source: 'file' },
    ]);
    expect(JSON.stringify(detail)).not.toContain('data');
    for (const a of artifacts) {
      const stored = store.artifact(id, a.name)!;
      expect(stored).toMatchObject({ name: a.name, mimeType: a.mimeType, size: a.size, source: a.source });
      expect(stored.data).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(stored.data).equals(Buffer.from(a.data))).toBe(true);
    }
  });

  it('answers null for an unknown run or name (and for another run’s name)', async () => {
    const store = await open();
    const a = recordRun(store, { artifacts: [figure(1)] });
    const b = recordRun(store, { artifacts: [csv] });
    expect(store.artifact('no-such-run', 'figure-1.png')).toBeNull();
    expect(store.artifact(a, 'figure-9.png')).toBeNull();
    expect(store.artifact(b, 'figure-1.png')).toBeNull();
    expect(store.artifact(a, 'out/report.csv')).toBeNull();
  });

  it('keeps what was refused, with the reasons', async () => {
    const store = await open();
    const refused = [{ name: 'figure-2.png', source: 'figure' as const, reason: 'image is 20000×100 px; the limit is 8000 px' }];
    const id = recordRun(store, { artifacts: [figure(1)], refusedArtifacts: refused });
    expect(store.get(id)!.refusedArtifacts).toEqual(refused);
    const plain = recordRun(store, {});
    expect(store.get(plain)).toMatchObject({ artifacts: [], refusedArtifacts: [] });
  });

  it('counts the bytes in the run’s recorded size', async () => {
    const store = await open();
    recordRun(store, {});
    const plain = store.totalBytes();
    recordRun(store, { artifacts: [figure(1, 40_000), figure(2, 60_000)] });
    const grew = store.totalBytes() - plain;
    expect(grew).toBeGreaterThanOrEqual(100_000 + 2 * ARTIFACT_OVERHEAD_BYTES);
    expect(grew).toBeLessThan(100_000 + 2 * ARTIFACT_OVERHEAD_BYTES + 2000);
  });

  it('records a finish once: a repeated finished event adds no second copy', async () => {
    const store = await open();
    const events = runEvents({ artifacts: [figure(1)] });
    for (const e of events) store.record(e);
    const before = store.totalBytes();
    store.record(events.at(-1)!);
    expect(await artifactRows()).toBe(1);
    expect(store.totalBytes()).toBe(before);
    expect(store.health().writeErrors).toBe(0);
  });

  it('retention by size removes the oldest runs with their artifacts, and keeps the newest', async () => {
    const store = await open();
    const now = Date.now();
    const old = recordRun(store, { queuedAt: now - 3000, artifacts: [figure(1, 300_000)] });
    const mid = recordRun(store, { queuedAt: now - 2000, artifacts: [figure(2, 300_000)] });
    const fresh = recordRun(store, { queuedAt: now - 1000, artifacts: [figure(3, 300_000)] });
    expect(await artifactRows()).toBe(3);
    store.setRetention({ maxAgeDays: 0, maxBytes: 700_000 });
    expect(store.prune()).toEqual({ byAge: 0, bySize: 1 });
    expect(store.get(old)).toBeNull();
    expect(store.artifact(old, 'figure-1.png')).toBeNull();
    expect(store.artifact(mid, 'figure-2.png')).not.toBeNull();
    expect(store.artifact(fresh, 'figure-3.png')).not.toBeNull();
    expect(await artifactRows()).toBe(2);
  });

  it('retention by age and "clear history" leave no artifact behind', async () => {
    const now = Date.UTC(2026, 5, 1);
    const store = await open({ now: () => now });
    recordRun(store, { queuedAt: now - 40 * 24 * 3600 * 1000, artifacts: [figure(1)] });
    const kept = recordRun(store, { queuedAt: now - 1000, artifacts: [figure(2), csv] });
    store.setRetention({ maxAgeDays: 30, maxBytes: 0 });
    expect(store.prune().byAge).toBe(1);
    expect(await artifactRows()).toBe(2);
    expect(store.get(kept)!.artifacts).toHaveLength(2);
    expect(store.clear()).toBe(1);
    expect(await artifactRows()).toBe(0);
  });

  it('survives a reopen (the bytes are in the file, not in memory)', async () => {
    const first = await open();
    const id = recordRun(first, { artifacts: [figure(7, 20_000)] });
    first.dispose();
    stores = [];
    const second = await open();
    expect(Buffer.from(second.artifact(id, 'figure-7.png')!.data).equals(Buffer.from(figure(7, 20_000).data))).toBe(true);
  });
});
