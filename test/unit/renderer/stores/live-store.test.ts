// The Live view's store (renderer/stores/live-store.ts): snapshots and runs moving queued → running → recent.
import { beforeEach, describe, expect, it } from 'vitest';
import { RECENT_LIMIT, useLiveStore } from '../../../../renderer/stores/live-store.js';
import { finished, running, snapshot, summary } from './fixtures.js';
import { resetStores } from './reset.js';

const live = () => useLiveStore.getState();
const pool = (ready: number, starting: number, size = 2) => ({ size, ready, starting, lastError: null, refilling: false });

beforeEach(resetStores);

describe('live store', () => {
  it('takes a snapshot whole', () => {
    live().snapshotLoaded(snapshot({ running: [running('r1')], queued: [summary('q1')], paused: true }));
    expect(live()).toMatchObject({ loaded: true, paused: true, memoryLimitBytes: 512 * 1024 ** 2 });
    expect(live().running.map((r) => r.id)).toEqual(['r1']);
    expect(live().queued.map((q) => q.id)).toEqual(['q1']);
  });

  it('moves a run from queued to running to recent', () => {
    live().executionQueued({ type: 'queued', execution: summary('a'), position: 1 });
    live().executionQueued({ type: 'queued', execution: summary('a'), position: 1 }); // twice: once
    expect(live().queued).toHaveLength(1);
    expect(live().executionStarted({ type: 'started', id: 'a', at: 5_000, containerName: 'sandbar-a', warm: true })).toBe(true);
    expect(live().queued).toHaveLength(0);
    expect(live().running[0]).toMatchObject({ id: 'a', startedAt: 5_000, containerName: 'sandbar-a', memoryBytes: null });
    live().executionFinished({ result: finished('a', { exitReason: 'timeout' }) });
    expect(live().running).toHaveLength(0);
    expect(live().recent[0]).toMatchObject({ id: 'a', exitReason: 'timeout' });
  });

  it('says when a started run was never seen queued (a missed event)', () => {
    expect(live().executionStarted({ type: 'started', id: 'ghost', at: 1, containerName: 'x', warm: false })).toBe(false);
    expect(live().running).toHaveLength(0);
  });

  it('keeps the newest runs first, at most RECENT_LIMIT, without duplicates', () => {
    for (let i = 0; i < RECENT_LIMIT + 5; i++) live().executionFinished({ result: finished(`f${i}`) });
    live().executionFinished({ result: finished('f24', { exitReason: 'error' }) });
    expect(live().recent).toHaveLength(RECENT_LIMIT);
    expect(live().recent[0]).toMatchObject({ id: 'f24', exitReason: 'error' });
    expect(live().recent.filter((r) => r.id === 'f24')).toHaveLength(1);
  });

  it('applies memory samples to the runs they name', () => {
    live().snapshotLoaded(snapshot({ running: [running('a'), running('b')] }));
    live().executionStats({ samples: [{ id: 'b', memoryBytes: 42 }] });
    expect(live().running.map((r) => r.memoryBytes)).toEqual([null, 42]);
  });

  it('counts tool calls per run and forgets them when it ends', () => {
    live().snapshotLoaded(snapshot({ running: [running('a')] }));
    const call = { executionId: 'a', server: 's', tool: 't', startedAt: 0, durationMs: 1, bytesIn: 0, bytesOut: 0, isError: false };
    live().executionToolCall({ call });
    live().executionToolCall({ call });
    expect(live().toolCalls.a).toBe(2);
    live().executionFinished({ result: finished('a') });
    expect(live().toolCalls.a).toBeUndefined();
  });

  it('reports whether live.changed counts match its lists', () => {
    live().snapshotLoaded(snapshot({ running: [running('a')] }));
    expect(live().liveChanged({ paused: true, pool: pool(2, 0), running: 1, queued: 0 })).toBe(true);
    expect(live().paused).toBe(true);
    expect(live().liveChanged({ paused: true, pool: pool(2, 0), running: 2, queued: 0 })).toBe(false);
  });

  it('takes the pool as the server reports it, refill included (nothing re-derived here)', () => {
    live().snapshotLoaded(snapshot({ pool: pool(2, 0) }));
    live().liveChanged({ paused: false, pool: { ...pool(0, 2), refilling: true }, running: 0, queued: 0 });
    expect(live().pool.refilling).toBe(true);
    live().liveChanged({ paused: false, pool: pool(2, 0), running: 0, queued: 0 });
    expect(live().pool.refilling).toBe(false);
  });
});
