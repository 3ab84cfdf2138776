// The History view's state: filters, the keyset-paged listing, runs arriving live, and the open detail.
// Its actions call the API as every feature does (the `api` module); live runs arrive through the one
// bridge (bridge.ts), like every other event.
import { create } from 'zustand';
import type { FinishedExecution, HistoryFacets } from '../../shared/contract.js';
import type { ExecutionSummary } from '../../shared/execution.js';
import type { HistoryDetail, HistoryItem } from '../../shared/history.js';
import {
  appendPage,
  DEFAULT_FILTERS,
  type HistoryFilters,
  insertNewest,
  itemFromFinished,
  itemFromQueued,
  type ListQuery,
  mergeFirstPage,
  sameFilters,
  toListQuery,
} from '../features/history/history-query.js';
import { type MakeRun, placeLiveRun, withFacetsOf } from '../features/history/live-runs.js';
import { selectVisibleRows } from '../features/history/session-rows.js';
import { api } from '../api/index.js';

export const SEARCH_DEBOUNCE_MS = 200;

export type DetailState =
  | { id: string; phase: 'loading'; data: HistoryDetail | null; error: null }
  | { id: string; phase: 'ready'; data: HistoryDetail; error: null }
  | { id: string; phase: 'missing' | 'error'; data: null; error: string | null };

export interface RerunState {
  fromId: string;
  phase: 'starting' | 'started' | 'error';
  newId: string | null;
  error: string | null;
}

export interface HistoryData {
  filters: HistoryFilters;
  /** What the search box shows; becomes `filters.search` after the debounce. */
  searchText: string;
  rows: HistoryItem[];
  nextCursor: string | null;
  /** The query of the loaded pages; later pages repeat it with a cursor. */
  query: ListQuery | null;
  /** Increases whenever a new first page (or a session focus) replaces the rows, so the view can scroll to the top. */
  listVersion: number;
  /** 'loading' keeps showing the previous rows (dimmed) until the new first page arrives. */
  phase: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  loadingMore: boolean;
  moreError: string | null;
  facets: HistoryFacets | null;
  /** New runs held back while the user is scrolled down, so the rows under their eyes do not move. */
  pending: HistoryItem[];
  /** True while the list is scrolled to its top: new runs are then shown at once. */
  atTop: boolean;
  /**
   * Runs that finished while a search was shown: only the server's index can say whether they match,
   * so the table offers to search again rather than guessing.
   */
  finishedDuringSearch: number;
  selectedId: string | null;
  /**
   * The session whose calls the table shows alone, or null for every run. Applied to the loaded rows on top
   * of the filters (the server's listing has no session filter); see session-rows.ts for how paging stops.
   */
  sessionFocus: string | null;
  detail: DetailState | null;
  rerun: RerunState | null;
}

export interface HistoryActions {
  historyOpened(): void;
  filtersChanged(patch: Partial<HistoryFilters>): void;
  filtersCleared(): void;
  searchTyped(text: string): void;
  /** Enter in the search box: apply now rather than after the debounce (the same search runs again). */
  searchSubmitted(): void;
  endReached(): void;
  retryRequested(): void;
  scrolled(atTop: boolean): void;
  newRunsShown(): void;
  rowSelected(id: string | null): void;
  /** Moves the selection by `delta` rows (clamped; ±Infinity for first/last). */
  selectionMoved(delta: number): void;
  /** Shows only the calls of one session (null: every run again). */
  sessionFocused(id: string | null): void;
  detailOpened(id: string): void;
  detailClosed(): void;
  rerunRequested(id: string): Promise<void>;
  executionQueued(execution: ExecutionSummary): void;
  executionStarted(id: string, at: number): void;
  toolCallRecorded(executionId: string): void;
  executionFinished(result: FinishedExecution): void;
  /** Back to the initial state, timers cleared (tests). */
  reset(): void;
}

export type HistoryState = HistoryData & HistoryActions;

const initialData = (): HistoryData => ({
  filters: DEFAULT_FILTERS,
  searchText: '',
  rows: [],
  nextCursor: null,
  query: null,
  listVersion: 0,
  phase: 'idle',
  error: null,
  loadingMore: false,
  moreError: null,
  facets: null,
  pending: [],
  finishedDuringSearch: 0,
  atTop: true,
  selectedId: null,
  sessionFocus: null,
  detail: null,
  rerun: null,
});

// Outside the state: the debounce timer, and a generation that makes answers to an abandoned query
// (filters changed meanwhile) harmless.
let searchTimer: ReturnType<typeof setTimeout> | null = null;
let generation = 0;
/** Runs that arrived by event while a first page was loading; merged into it when it answers. */
let early: HistoryItem[] = [];
/** Tool calls seen per running execution, so a finished row can show its count without a query. */
const liveToolCalls = new Map<string, number>();

function errorText(err: unknown): string {
  if (err && typeof err === 'object' && 'message' in err && typeof err.message === 'string') return err.message;
  return String(err);
}

function clearSearchTimer(): void {
  if (searchTimer !== null) clearTimeout(searchTimer);
  searchTimer = null;
}

export const useHistoryStore = create<HistoryState>()((set, get) => {
  async function loadFirstPage(): Promise<void> {
    const gen = ++generation;
    early = [];
    const query = toListQuery(get().filters, Date.now());
    set({ phase: 'loading', error: null, moreError: null, loadingMore: false, query });
    try {
      const page = await api.call('executions.list', query);
      if (gen !== generation) return;
      const rows = mergeFirstPage(early, page.items, page.nextCursor === null);
      early = [];
      set((s) => ({ phase: 'ready', rows, nextCursor: page.nextCursor, listVersion: s.listVersion + 1 }));
    } catch (err) {
      if (gen !== generation) return;
      early = [];
      set({ phase: 'error', error: errorText(err), rows: [], nextCursor: null });
    }
  }

  async function loadNextPage(): Promise<void> {
    const { nextCursor, query, loadingMore, phase } = get();
    if (nextCursor === null || query === null || loadingMore || phase !== 'ready') return;
    const gen = generation;
    set({ loadingMore: true, moreError: null });
    try {
      const page = await api.call('executions.list', { ...query, cursor: nextCursor });
      if (gen !== generation) return;
      set((s) => ({ rows: appendPage(s.rows, page.items), nextCursor: page.nextCursor, loadingMore: false }));
    } catch (err) {
      if (gen !== generation) return;
      set({ loadingMore: false, moreError: errorText(err) });
    }
  }

  async function loadFacets(): Promise<void> {
    try {
      const facets = await api.call('executions.facets', {});
      set({ facets });
    } catch {
      // Filters still work without the lists; the selects then offer only "All".
    }
  }

  async function loadDetail(id: string): Promise<void> {
    try {
      const data = await api.call('executions.get', { id });
      if (get().detail?.id !== id) return;
      set({ detail: data ? { id, phase: 'ready', data, error: null } : { id, phase: 'missing', data: null, error: null } });
    } catch (err) {
      if (get().detail?.id !== id) return;
      set({ detail: { id, phase: 'error', data: null, error: errorText(err) } });
    }
  }

  function startOver(filters: HistoryFilters): void {
    set({ filters, pending: [], finishedDuringSearch: 0 });
    void loadFirstPage();
  }

  /** A run changed or appeared: see placeLiveRun. Returns the run's new version. */
  function upsertLive(id: string, make: MakeRun): HistoryItem | null {
    const s = get();
    const { patch, run } = placeLiveRun({ rows: s.rows, pending: s.pending, early }, s, id, make);
    if (patch.early) early = patch.early;
    if (patch.rows || patch.pending) set({ ...(patch.rows ? { rows: patch.rows } : {}), ...(patch.pending ? { pending: patch.pending } : {}) });
    return run;
  }

  return {
    ...initialData(),

    historyOpened() {
      const s = get();
      if (s.phase === 'idle' || s.phase === 'error') void loadFirstPage();
      if (s.facets === null) void loadFacets();
    },

    filtersChanged(patch) {
      const filters = { ...get().filters, ...patch };
      if (patch.search !== undefined) {
        clearSearchTimer();
        filters.search = patch.search.trim();
      }
      if (sameFilters(filters, get().filters) && get().phase !== 'error') return;
      startOver(filters);
    },

    filtersCleared() {
      clearSearchTimer();
      set({ searchText: '', sessionFocus: null });
      if (sameFilters(get().filters, DEFAULT_FILTERS)) return;
      startOver(DEFAULT_FILTERS);
    },

    searchTyped(text) {
      set({ searchText: text });
      clearSearchTimer();
      searchTimer = setTimeout(() => {
        searchTimer = null;
        get().filtersChanged({ search: text });
      }, SEARCH_DEBOUNCE_MS);
    },

    searchSubmitted() {
      clearSearchTimer();
      const filters = { ...get().filters, search: get().searchText.trim() };
      // Enter on an unchanged search is "search again": runs recorded since may match now.
      startOver(filters);
    },

    endReached() {
      void loadNextPage();
    },

    retryRequested() {
      const s = get();
      if (s.phase === 'error' || s.phase === 'idle') void loadFirstPage();
      else if (s.moreError !== null) void loadNextPage();
      if (s.facets === null) void loadFacets();
    },

    scrolled(atTop) {
      const s = get();
      if (s.atTop === atTop) return;
      // Back at the top: what was held back can show without moving anything the user is reading.
      if (atTop && s.pending.length > 0) get().newRunsShown();
      set({ atTop });
    },

    newRunsShown() {
      const s = get();
      if (s.pending.length === 0) return;
      let rows = s.rows;
      const ids = new Set(rows.slice(0, 500).map((r) => r.id));
      for (const r of [...s.pending].reverse()) if (!ids.has(r.id)) rows = insertNewest(rows, r);
      set({ rows, pending: [] });
    },

    rowSelected(id) {
      set({ selectedId: id });
    },

    selectionMoved(delta) {
      const { selectedId } = get();
      const rows = selectVisibleRows(get());
      if (rows.length === 0) return;
      const at = selectedId === null ? -1 : rows.findIndex((r) => r.id === selectedId);
      const from = at < 0 ? (delta > 0 ? -1 : rows.length) : at;
      const to = Math.min(rows.length - 1, Math.max(0, from + delta));
      set({ selectedId: rows[to]!.id });
    },

    sessionFocused(id) {
      if (get().sessionFocus === id) return;
      // A different set of rows: the table starts at its top, as for a new listing.
      set((s) => ({ sessionFocus: id, listVersion: s.listVersion + 1 }));
    },

    detailOpened(id) {
      const d = get().detail;
      if (d?.id === id && d.phase !== 'error') return;
      set({ detail: { id, phase: 'loading', data: null, error: null }, selectedId: id });
      void loadDetail(id);
    },

    detailClosed() {
      if (get().detail !== null) set({ detail: null });
    },

    async rerunRequested(id) {
      set({ rerun: { fromId: id, phase: 'starting', newId: null, error: null } });
      try {
        const { id: newId } = await api.call('executions.rerun', { id });
        if (get().rerun?.fromId === id) set({ rerun: { fromId: id, phase: 'started', newId, error: null } });
      } catch (err) {
        if (get().rerun?.fromId === id) set({ rerun: { fromId: id, phase: 'error', newId: null, error: errorText(err) } });
      }
    },

    executionQueued(execution) {
      upsertLive(execution.id, (known) => (known ? null : itemFromQueued(execution)));
    },

    executionStarted(id, at) {
      upsertLive(id, (known) => (known && known.status === 'queued' ? { ...known, status: 'running', startedAt: at } : null));
    },

    toolCallRecorded(executionId) {
      liveToolCalls.set(executionId, (liveToolCalls.get(executionId) ?? 0) + 1);
    },

    executionFinished(result) {
      const calls = liveToolCalls.get(result.id) ?? 0;
      liveToolCalls.delete(result.id);
      const made = upsertLive(result.id, (known) => itemFromFinished(result, known, calls));
      const facets = get().facets;
      if (made && facets) {
        const next = withFacetsOf(facets, made);
        if (next !== facets) set({ facets: next });
      }
      // An open detail of this run was showing it unfinished.
      const d = get().detail;
      if (d?.id === result.id) void loadDetail(result.id);
      if (get().filters.search) set({ finishedDuringSearch: get().finishedDuringSearch + 1 });
    },

    reset() {
      clearSearchTimer();
      generation++;
      early = [];
      liveToolCalls.clear();
      set(initialData());
    },
  };
});
