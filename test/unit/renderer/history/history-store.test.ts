// The History view's store: paging through the virtualised table, filters and the debounced search.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectFake } from './connect-fake.js';
import { SEARCH_DEBOUNCE_MS, useHistoryStore } from '../../../../renderer/stores/history-store.js';
import { PAGE_SIZE } from '../../../../renderer/features/history/history-query.js';
import { FakeHistoryApi, makeItems, settle, T0 } from './fake-history-api.js';

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

describe('paging', () => {
  it('loads the first page of PAGE_SIZE rows and the facets on open', async () => {
    await open(1000);
    expect(store().phase).toBe('ready');
    expect(store().rows).toHaveLength(PAGE_SIZE);
    expect(store().rows[0]!.id).toBe('run-0');
    expect(store().nextCursor).not.toBeNull();
    expect(fake.listCalls()).toEqual([{ limit: PAGE_SIZE }]);
    expect(store().facets?.servers).toEqual(['filesystem', 'github', 'postgres']);
  });

  it('follows the keyset cursor page by page until the last page', async () => {
    await open(450);
    store().endReached();
    await settle();
    expect(fake.listCalls()[1]).toEqual({ limit: PAGE_SIZE, cursor: '200' });
    expect(store().rows).toHaveLength(400);
    store().endReached();
    await settle();
    expect(store().rows).toHaveLength(450);
    expect(store().rows.map((r) => r.id)).toEqual(makeItems(450).map((r) => r.id));
    expect(store().nextCursor).toBeNull();
    store().endReached();
    await settle();
    expect(fake.listCalls()).toHaveLength(3);
  });

  it('asks for one next page at a time however often the end is reached', async () => {
    await open(1000);
    store().endReached();
    store().endReached();
    store().endReached();
    await settle();
    expect(fake.listCalls()).toHaveLength(2);
  });

  it('does not reload when opened again with rows already loaded', async () => {
    await open(300);
    store().historyOpened();
    await settle();
    expect(fake.listCalls()).toHaveLength(1);
  });

  it('shows an error with the message, and a retry loads again', async () => {
    fake = new FakeHistoryApi(makeItems(10));
    fake.listError = 'database is locked';
    connectFake(fake);
    store().historyOpened();
    await settle();
    expect(store().phase).toBe('error');
    expect(store().error).toBe('database is locked');
    fake.listError = null;
    store().retryRequested();
    await settle();
    expect(store().phase).toBe('ready');
    expect(store().rows).toHaveLength(10);
  });

  it('keeps the rows when a later page fails, and retries that page', async () => {
    await open(500);
    fake.listError = 'gone';
    store().endReached();
    await settle();
    expect(store().rows).toHaveLength(200);
    expect(store().moreError).toBe('gone');
    fake.listError = null;
    store().retryRequested();
    await settle();
    expect(store().rows).toHaveLength(400);
    expect(store().moreError).toBeNull();
  });
});

describe('filters', () => {
  it('a filter change starts over from the first page with the filter in the query', async () => {
    await open(1000);
    store().endReached();
    await settle();
    expect(store().rows).toHaveLength(400);
    const version = store().listVersion;
    store().filtersChanged({ statuses: ['timeout'], client: 'cursor', server: 'github' });
    expect(store().phase).toBe('loading');
    await settle();
    const last = fake.listCalls().at(-1)!;
    expect(last).toEqual({ limit: PAGE_SIZE, status: ['timeout'], client: 'cursor', server: 'github' });
    expect(last.cursor).toBeUndefined();
    expect(store().rows.every((r) => r.status === 'timeout' && r.client.name === 'cursor' && r.servers.includes('github'))).toBe(true);
    expect(store().listVersion).toBe(version + 1);
  });

  it('resolves "last hour" once and repeats the same bounds on later pages', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0 + 1000);
    await open(5000);
    store().filtersChanged({ range: 'hour' });
    await settle();
    vi.setSystemTime(T0 + 60_000);
    store().endReached();
    await settle();
    const [, first, second] = fake.listCalls();
    expect(first!.from).toBe(T0 + 1000 - 60 * 60 * 1000);
    expect(second!.from).toBe(first!.from);
    expect(second!.cursor).toBe('200');
  });

  it('drops the answer to a query whose filters were changed meanwhile', async () => {
    await open(1000);
    fake.holding = true;
    store().filtersChanged({ statuses: ['error'] });
    store().filtersChanged({ statuses: ['memory'] });
    fake.release('reversed'); // the abandoned query answers last
    await settle();
    expect(store().rows.length).toBeGreaterThan(0);
    expect(store().rows.every((r) => r.status === 'memory')).toBe(true);
  });

  it('ignores a change to the same filters', async () => {
    await open(100);
    store().filtersChanged({ statuses: [] });
    await settle();
    expect(fake.listCalls()).toHaveLength(1);
  });

  it('clearing the filters empties the search box and lists everything again', async () => {
    await open(100);
    store().searchTyped('print');
    store().searchSubmitted();
    await settle();
    store().filtersCleared();
    await settle();
    expect(store().searchText).toBe('');
    expect(fake.listCalls().at(-1)).toEqual({ limit: PAGE_SIZE });
  });
});

describe('search debounce', () => {
  it('queries once, after the typing stops for the debounce delay', async () => {
    vi.useFakeTimers();
    await open(100);
    store().searchTyped('v');
    store().searchTyped('va');
    store().searchTyped('value_1');
    expect(store().searchText).toBe('value_1');
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 10);
    expect(fake.listCalls()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    await settle();
    expect(fake.listCalls()).toHaveLength(2);
    expect(fake.listCalls()[1]!.search).toBe('value_1');
    expect(store().rows[0]!.snippet?.some((p) => p.hit)).toBe(true);
  });

  it('Enter applies at once and cancels the pending timer', async () => {
    vi.useFakeTimers();
    await open(100);
    store().searchTyped('  value_2 ');
    store().searchSubmitted();
    await settle();
    expect(fake.listCalls()[1]!.search).toBe('value_2');
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS * 2);
    expect(fake.listCalls()).toHaveLength(2);
  });

  it('reset() cancels a pending search', async () => {
    vi.useFakeTimers();
    await open(100);
    store().searchTyped('value');
    store().reset();
    connectFake(fake);
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS * 2);
    expect(fake.listCalls()).toHaveLength(1);
    expect(store().filters.search).toBe('');
  });
});
