// The History view's store, continued: runs arriving live, selection and detail, reset, and session calls.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectFake } from './connect-fake.js';
import { useHistoryStore } from '../../../../renderer/stores/history-store.js';
import { FakeHistoryApi, finishedEvent, makeItems, settle, T0 } from './fake-history-api.js';

vi.mock('../../../../renderer/api/index.js', async () => (await import('./api-holder.js')).apiModule);

const store = () => useHistoryStore.getState();
let fake: FakeHistoryApi;

async function open(n = 1000): Promise<void> {
  fake = new FakeHistoryApi(makeItems(n));
  connectFake(fake);
  store().historyOpened();
  await settle();
}

beforeEach(() => store().reset());
afterEach(() => {
  vi.useRealTimers();
  store().reset();
});

describe('live runs', () => {
  it('a finished run shows at the top at once while the list is at its top', async () => {
    await open(300);
    fake.emit('execution.finished', finishedEvent('live-1'));
    expect(store().rows[0]!.id).toBe('live-1');
    expect(store().rows[0]!.status).toBe('success');
    expect(store().rows[0]!.codePreview).toBe('print("live-1")');
    expect(store().pending).toHaveLength(0);
  });

  it('is held behind the pill while the user is scrolled down, and shown on request', async () => {
    await open(300);
    store().scrolled(false);
    fake.emit('execution.finished', finishedEvent('live-1'));
    fake.emit('execution.finished', finishedEvent('live-2', { queuedAt: T0 + 70_000 }));
    expect(store().rows[0]!.id).toBe('run-0');
    expect(store().pending.map((r) => r.id)).toEqual(['live-2', 'live-1']);
    store().newRunsShown();
    expect(store().rows.slice(0, 3).map((r) => r.id)).toEqual(['live-2', 'live-1', 'run-0']);
    expect(store().pending).toHaveLength(0);
  });

  it('shows the held runs when the user scrolls back to the top', async () => {
    await open(300);
    store().scrolled(false);
    fake.emit('execution.finished', finishedEvent('live-1'));
    store().scrolled(true);
    expect(store().rows[0]!.id).toBe('live-1');
    expect(store().pending).toHaveLength(0);
  });

  it('a run the filters exclude is not added', async () => {
    await open(300);
    store().filtersChanged({ statuses: ['error'] });
    await settle();
    const before = store().rows.length;
    fake.emit('execution.finished', finishedEvent('ok-run'));
    fake.emit('execution.finished', finishedEvent('bad-run', { exitReason: 'error', exitCode: 1 }));
    expect(store().rows.length).toBe(before + 1);
    expect(store().rows[0]!.id).toBe('bad-run');
    store().filtersChanged({ statuses: [], client: 'cursor' });
    await settle();
    fake.emit('execution.finished', finishedEvent('from-claude'));
    expect(store().rows.some((r) => r.id === 'from-claude')).toBe(false);
  });

  it('a search never admits live runs (the server decides what matches)', async () => {
    await open(300);
    store().searchTyped('print');
    store().searchSubmitted();
    await settle();
    fake.emit('execution.finished', finishedEvent('live-print'));
    expect(store().rows.some((r) => r.id === 'live-print')).toBe(false);
    expect(store().pending).toHaveLength(0);
  });

  it('counts runs that finish during a search, and searching again (Enter on the same text) re-queries and clears the count', async () => {
    await open(300);
    store().searchTyped('print');
    store().searchSubmitted();
    await settle();
    const before = fake.listCalls().length;
    fake.emit('execution.finished', finishedEvent('live-a'));
    fake.emit('execution.finished', finishedEvent('live-b'));
    expect(store().finishedDuringSearch).toBe(2);
    store().searchSubmitted();
    await settle();
    expect(fake.listCalls()).toHaveLength(before + 1);
    expect(fake.listCalls().at(-1)!.search).toBe('print');
    expect(store().finishedDuringSearch).toBe(0);
  });

  it('does not count finished runs when no search is shown', async () => {
    await open(300);
    fake.emit('execution.finished', finishedEvent('live-c'));
    expect(store().finishedDuringSearch).toBe(0);
  });

  it('queued, started and finished update one row in place', async () => {
    await open(300);
    const fin = finishedEvent('live-1', { exitReason: 'timeout', exitCode: null });
    fake.emit('execution.queued', {
      type: 'queued',
      position: 0,
      execution: { id: 'live-1', code: fin.result.code, servers: ['github'], client: { name: 'cursor' }, timeoutSec: 30, queuedAt: fin.result.queuedAt },
    });
    expect(store().rows[0]).toMatchObject({ id: 'live-1', status: 'queued', servers: ['github'] });
    fake.emit('execution.started', { type: 'started', id: 'live-1', at: fin.result.queuedAt + 5, containerName: 'c', warm: true });
    expect(store().rows[0]!.status).toBe('running');
    fake.emit('execution.toolCall', {
      call: { executionId: 'live-1', server: 'github', tool: 'search', startedAt: 0, durationMs: 1, bytesIn: 1, bytesOut: 1, isError: false },
    });
    store().scrolled(false); // an update in place never needs the pill
    fake.emit('execution.finished', fin);
    expect(store().rows.filter((r) => r.id === 'live-1')).toHaveLength(1);
    expect(store().rows[0]).toMatchObject({ id: 'live-1', status: 'timeout', client: { name: 'cursor' }, toolCallCount: 1 });
    expect(store().pending).toHaveLength(0);
  });

  it('a run finishing while the first page loads is merged into it once', async () => {
    fake = new FakeHistoryApi(makeItems(50));
    connectFake(fake);
    fake.holding = true;
    store().historyOpened();
    fake.emit('execution.finished', finishedEvent('early'));
    // The server's page may already contain it.
    fake.items = [{ ...makeItems(1)[0]!, id: 'early', queuedAt: T0 + 60_000, status: 'running' }, ...fake.items];
    fake.release();
    await settle();
    expect(store().rows.filter((r) => r.id === 'early')).toHaveLength(1);
    expect(store().rows[0]).toMatchObject({ id: 'early', status: 'success' });
    expect(store().rows).toHaveLength(51);
  });

  it('a new client or server from a live run joins the facets', async () => {
    await open(10);
    fake.emit('execution.finished', finishedEvent('x', { client: { name: 'windsurf' }, servers: ['slack'] }));
    expect(store().facets?.clients).toContain('windsurf');
    expect(store().facets?.servers).toContain('slack');
  });

});

describe('selection and detail', () => {
  it('moves the selection with clamping, starting from the first row', async () => {
    await open(5);
    store().selectionMoved(-1);
    expect(store().selectedId).toBe('run-4');
    store().rowSelected(null);
    store().selectionMoved(1);
    expect(store().selectedId).toBe('run-0');
    store().selectionMoved(2);
    expect(store().selectedId).toBe('run-2');
    store().selectionMoved(Infinity);
    expect(store().selectedId).toBe('run-4');
    store().selectionMoved(1);
    expect(store().selectedId).toBe('run-4');
    store().selectionMoved(-Infinity);
    expect(store().selectedId).toBe('run-0');
  });

  it('opens a detail, says when the run is gone, and closes', async () => {
    await open(5);
    store().detailOpened('run-3');
    expect(store().detail).toMatchObject({ id: 'run-3', phase: 'loading' });
    await settle();
    expect(store().detail).toMatchObject({ id: 'run-3', phase: 'ready' });
    expect(store().detail?.data?.code).toContain('print(3)');
    expect(store().selectedId).toBe('run-3');
    store().detailOpened('nope');
    await settle();
    expect(store().detail).toMatchObject({ id: 'nope', phase: 'missing' });
    store().detailClosed();
    expect(store().detail).toBeNull();
  });

  it('re-run reports the new id', async () => {
    await open(5);
    fake.rerunId = 'run-fresh';
    await store().rerunRequested('run-1');
    expect(store().rerun).toEqual({ fromId: 'run-1', phase: 'started', newId: 'run-fresh', error: null });
    expect(fake.calls.at(-1)).toEqual({ method: 'executions.rerun', args: { id: 'run-1' } });
  });
});

describe('reset', () => {
  it('returns to the initial state', async () => {
    await open(300);
    store().filtersChanged({ statuses: ['error'] });
    store().scrolled(false);
    store().reset();
    expect(store()).toMatchObject({ phase: 'idle', rows: [], pending: [], atTop: true, detail: null, nextCursor: null, facets: null });
    expect(store().filters.statuses).toEqual([]);
  });

  it('a failing call leaves a message, not a crash', async () => {
    fake = new FakeHistoryApi(makeItems(3));
    fake.listError = 'the database is gone';
    connectFake(fake);
    store().historyOpened();
    await settle();
    expect(store().phase).toBe('error');
    expect(store().error).toBe('the database is gone');
  });
});

describe('session calls arriving live', () => {
  const S = '3f2a9c0d7be14e21a6c85f09d3b7e412';
  type Summary = Parameters<ReturnType<typeof store>['executionQueued']>[0];
  // The engine's summary of a session call carries `session` (typed there once the engine side lands).
  const queued = (id: string, session?: { id: string; call: number }): Summary =>
    Object.assign({ id, code: `print("${id}")`, servers: [], timeoutSec: 30, queuedAt: T0 + 60_000 } satisfies Summary, session ? { session } : {});

  it('a queued session call shows its label, keeps it when it finishes, and stays in the session’s focus', async () => {
    await open(10);
    store().sessionFocused(S);
    store().executionQueued(queued('live-s', { id: S, call: 4 }));
    store().executionQueued(queued('live-plain'));
    expect(store().rows.find((r) => r.id === 'live-s')!.session).toEqual({ id: S, call: 4 });
    expect(store().rows.find((r) => r.id === 'live-plain')!.session).toBeUndefined();
    fake.emit('execution.finished', finishedEvent('live-s'));
    await settle();
    const row = store().rows.find((r) => r.id === 'live-s')!;
    expect(row).toMatchObject({ status: 'success', session: { id: S, call: 4 } });
  });

  it('arrow keys move within the session in focus only', async () => {
    fake = new FakeHistoryApi(makeItems(10).map((r, k) => (k === 2 || k === 7 ? { ...r, session: { id: S, call: k === 2 ? 2 : 1 } } : r)));
    connectFake(fake);
    store().historyOpened();
    await settle();
    store().sessionFocused(S);
    store().selectionMoved(1);
    expect(store().selectedId).toBe('run-2');
    store().selectionMoved(1);
    expect(store().selectedId).toBe('run-7');
    store().selectionMoved(1);
    expect(store().selectedId).toBe('run-7');
    store().selectionMoved(-Infinity);
    expect(store().selectedId).toBe('run-2');
  });
});
