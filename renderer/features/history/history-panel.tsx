// The History screen: filters, the table (or why it is empty), and the detail of the run in the hash.
import { type RefObject, useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { navigate, useRoute } from '../../app/routes.js';
import { Button } from '../../components/button.js';
import { EmptyState } from '../../components/empty-state.js';
import { useHistoryStore } from '../../stores/history-store.js';
import { HistoryDetailPane } from './history-detail.js';
import { HistoryFilters } from './history-filters.js';
import { markHistoryOpened } from './history-perf.js';
import { hasActiveFilters } from './history-query.js';
import { HistoryTable } from './history-table.js';
import './history.css';

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

function NoRuns({ filtered }: { filtered: boolean }) {
  if (filtered) {
    return (
      <EmptyState
        title="No runs match these filters"
        actions={<Button onClick={() => useHistoryStore.getState().filtersCleared()}>Clear filters</Button>}
      />
    );
  }
  return (
    <EmptyState title="No runs yet">
      Every execution shows up here: an agent calling <code>run_python</code>, <code>sandbar run</code> in a terminal, or a re-run from
      this panel.
    </EmptyState>
  );
}

function LoadedCount() {
  const { loaded, more, ready } = useHistoryStore(useShallow((s) => ({ loaded: s.rows.length, more: s.nextCursor !== null, ready: s.phase === 'ready' })));
  if (!ready || loaded === 0) return null;
  const runs = loaded === 1 ? '1 run' : `${loaded.toLocaleString()} runs`;
  return <span className="hist-count">{more ? `${runs} loaded, more as you scroll` : runs}</span>;
}

function HistoryBody({ onOpen, gridRef }: { onOpen(id: string): void; gridRef: RefObject<HTMLDivElement | null> }) {
  const s = useHistoryStore(
    useShallow((st) => ({ phase: st.phase, error: st.error, empty: st.rows.length === 0 && st.pending.length === 0, filtered: hasActiveFilters(st.filters) })),
  );
  if (s.phase === 'error') {
    return (
      <div className="hist-empty" role="alert">
        <EmptyState title="Could not load the history" actions={<Button onClick={() => useHistoryStore.getState().retryRequested()}>Retry</Button>}>
          <span className="hist-error-text">{s.error}</span>
        </EmptyState>
      </div>
    );
  }
  if (s.empty && (s.phase === 'idle' || s.phase === 'loading')) {
    return (
      <div className="hist-empty" role="status">
        <p className="hist-muted">Loading history…</p>
      </div>
    );
  }
  if (s.empty) {
    return (
      <div className="hist-empty">
        <NoRuns filtered={s.filtered} />
      </div>
    );
  }
  return <HistoryTable onOpen={onOpen} gridRef={gridRef} />;
}

export function HistoryPanel() {
  const searchRef = useRef<HTMLInputElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const route = useRoute();
  const detailId = route.view === 'history' ? (route.id ?? null) : null;
  const detailOpen = useHistoryStore((s) => s.detail !== null);

  useEffect(() => {
    markHistoryOpened();
    useHistoryStore.getState().historyOpened();
  }, []);

  useEffect(() => {
    const store = useHistoryStore.getState();
    if (detailId !== null) store.detailOpened(detailId);
    else store.detailClosed();
  }, [detailId]);

  const open = (id: string) => {
    navigate({ view: 'history', id });
  };
  const close = () => {
    navigate({ view: 'history' });
    gridRef.current?.focus({ preventScroll: true });
  };

  // "/" finds, Escape closes the detail (or empties the search box it is pressed in).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === '/' && !isTyping(e.target)) {
        e.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      } else if (e.key === 'Escape' && useHistoryStore.getState().detail !== null) {
        e.preventDefault();
        close();
      } else if (e.key === 'Escape' && e.target === searchRef.current && useHistoryStore.getState().searchText !== '') {
        e.preventDefault();
        useHistoryStore.getState().searchTyped('');
        useHistoryStore.getState().searchSubmitted();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section className={detailOpen ? 'history has-detail' : 'history'} aria-labelledby="history-title">
      <header className="hist-title">
        <h1 id="history-title" tabIndex={-1}>
          History
        </h1>
        <LoadedCount />
      </header>
      <HistoryFilters searchRef={searchRef} />
      <div className="hist-main">
        <HistoryBody onOpen={open} gridRef={gridRef} />
        {detailOpen && <HistoryDetailPane onClose={close} />}
      </div>
    </section>
  );
}
