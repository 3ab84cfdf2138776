// Which unfinished runs a start marks interrupted: only those whose writer is gone.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../../electron/history/history-store.js';
import { STALE_AFTER_MS } from '../../../electron/history/interrupted-runs.js';
import { openStore, runEvents, tempDir } from './helpers.js';

const NOW = Date.UTC(2026, 3, 1);
const HOST = 'workstation';
let dir: ReturnType<typeof tempDir>;
let file: string;

beforeEach(() => {
  dir = tempDir();
  file = path.join(dir.dir, 'history.db');
});
afterEach(() => dir.cleanup());

/** Records a queued (and optionally started) run as if written by `pid` on `host`. */
async function leaveRun(host: string, pid: number, queuedAt = NOW - 1000, start = true): Promise<string> {
  const store = await openStore(file, { identity: { host, pid }, now: () => NOW, isAlive: () => true });
  const [queued, started] = runEvents({ queuedAt });
  store.record(queued!);
  if (start) store.record(started!);
  store.dispose();
  return queued!.type === 'queued' ? queued!.execution.id : '';
}

async function restart(alive: number[], pid = 1): Promise<HistoryStore> {
  return openStore(file, { identity: { host: HOST, pid }, now: () => NOW, isAlive: (p) => alive.includes(p) });
}

describe('interrupted at start', () => {
  it('marks the runs of dead processes on this host, queued or running, and leaves live ones', async () => {
    const deadRunning = await leaveRun(HOST, 100);
    const deadQueued = await leaveRun(HOST, 100, NOW - 500, false);
    const live = await leaveRun(HOST, 200);
    const store = await restart([200]);
    expect(store.get(deadRunning)!.status).toBe('interrupted');
    expect(store.get(deadQueued)!.status).toBe('interrupted');
    expect(store.get(live)!.status).toBe('running');
    store.dispose();
  });

  it('leaves another host’s runs until they are older than any run can be', async () => {
    const recent = await leaveRun('laptop', 100);
    const ancient = await leaveRun('laptop', 101, NOW - STALE_AFTER_MS - 1);
    const store = await restart([]);
    expect(store.get(recent)!.status).toBe('running');
    expect(store.get(ancient)!.status).toBe('interrupted');
    store.dispose();
  });

  it('treats stale runs as interrupted even if their pid is alive again (pid reuse)', async () => {
    const id = await leaveRun(HOST, 300, NOW - STALE_AFTER_MS - 1);
    const store = await restart([300]);
    expect(store.get(id)!.status).toBe('interrupted');
    store.dispose();
  });

  it('marks its own pid’s leftovers (a previous life with the same pid), unless another store here has the file open', async () => {
    const id = await leaveRun(HOST, 1);
    const sibling = await restart([], 1);
    expect(sibling.get(id)!.status).toBe('interrupted');
    const [queued, started] = runEvents({ queuedAt: NOW });
    sibling.record(queued!);
    sibling.record(started!);
    sibling.flush(); // written before the second store reads the file
    const second = await restart([], 1);
    expect(second.countByStatus()).toMatchObject({ running: 1, interrupted: 1 });
    second.dispose();
    sibling.dispose();
  });

  it('never touches finished runs', async () => {
    const store = await openStore(file, { identity: { host: HOST, pid: 5 }, now: () => NOW });
    for (const e of runEvents({ queuedAt: NOW - 10 })) store.record(e);
    store.dispose();
    const again = await restart([]);
    expect(again.countByStatus()).toMatchObject({ success: 1, interrupted: 0 });
    again.dispose();
  });
});
