// The History view's filters as queries to the main process, and which live runs they admit.
import { describe, expect, it } from 'vitest';
import {
  appendPage,
  DEFAULT_FILTERS,
  hasActiveFilters,
  insertNewest,
  matchesFilters,
  mergeFirstPage,
  toListQuery,
} from '../../../../renderer/features/history/history-query.js';
import { makeItems, T0 } from './fake-history-api.js';

const [a, b, c] = makeItems(3);

describe('history filters as queries', () => {
  it('sends only the filters that are set', () => {
    expect(toListQuery(DEFAULT_FILTERS, T0)).toEqual({ limit: 200 });
    expect(toListQuery({ ...DEFAULT_FILTERS, statuses: ['error', 'timeout'], client: 'cli', search: 'os.path' }, T0)).toEqual({
      limit: 200,
      status: ['error', 'timeout'],
      client: 'cli',
      search: 'os.path',
    });
    expect(toListQuery({ ...DEFAULT_FILTERS, range: 'day' }, T0).from).toBe(T0 - 86_400_000);
    expect(toListQuery({ ...DEFAULT_FILTERS, range: 'custom', from: 5, to: 9 }, T0)).toMatchObject({ from: 5, to: 9 });
    expect(toListQuery({ ...DEFAULT_FILTERS, from: 5 }, T0).from).toBeUndefined();
  });

  it('knows when any filter is active', () => {
    expect(hasActiveFilters(DEFAULT_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_FILTERS, range: 'custom' })).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_FILTERS, range: 'week' })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_FILTERS, server: 'github' })).toBe(true);
  });

  it('admits a live run only when every filter passes', () => {
    const run = { ...a!, status: 'error' as const, client: { name: 'cli', version: null }, servers: ['github'], queuedAt: 100 };
    expect(matchesFilters(run, DEFAULT_FILTERS)).toBe(true);
    expect(matchesFilters(run, { ...DEFAULT_FILTERS, statuses: ['error'], client: 'cli', server: 'github', range: 'hour' })).toBe(true);
    expect(matchesFilters(run, { ...DEFAULT_FILTERS, statuses: ['success'] })).toBe(false);
    expect(matchesFilters(run, { ...DEFAULT_FILTERS, client: 'cursor' })).toBe(false);
    expect(matchesFilters(run, { ...DEFAULT_FILTERS, server: 'slack' })).toBe(false);
    expect(matchesFilters(run, { ...DEFAULT_FILTERS, range: 'custom', from: 101, to: null })).toBe(false);
    expect(matchesFilters(run, { ...DEFAULT_FILTERS, range: 'custom', from: null, to: 100 })).toBe(false);
    expect(matchesFilters(run, { ...DEFAULT_FILTERS, search: 'x' })).toBe(false);
  });
});

describe('merging rows', () => {
  it('inserts by queue time, newest first', () => {
    const rows = [a!, c!];
    expect(insertNewest(rows, b!).map((r) => r.id)).toEqual(['run-0', 'run-1', 'run-2']);
    expect(insertNewest(rows, { ...b!, queuedAt: T0 + 1 })[0]!.id).toBe('run-1');
  });

  it('merges runs seen by event into the first page once, keeping the later version', () => {
    const page = [{ ...a!, status: 'running' as const }, b!];
    const early = [{ ...a!, status: 'success' as const }, { ...a!, id: 'newer', queuedAt: T0 + 5 }];
    const merged = mergeFirstPage(early, page, false);
    expect(merged.map((r) => r.id)).toEqual(['newer', 'run-0', 'run-1']);
    expect(merged[1]!.status).toBe('success');
  });

  it('does not repeat a run already listed when a later page brings it', () => {
    expect(appendPage([a!, b!], [b!, c!]).map((r) => r.id)).toEqual(['run-0', 'run-1', 'run-2']);
  });
});
