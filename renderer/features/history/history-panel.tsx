// The History screen: filters, the table (or why it is empty), and the detail of the run in the hash.
import { type RefObject, useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { navigate, useRoute } from '../../app/routes.js';
import { Button } from '../../components/button.js';
import { EmptyState } from '../../components/empty-state.js';
import { callCount, shortSessionId } from '../../lib/session-format.js';
import { useHistoryStore } from '../../stores/history-store.js';
import { HistoryDetailPane } from './history-detail.js';
import { HistoryFilters } from './history-filters.js';
import { markHistoryOpened } from './history-perf.js';
import { hasActiveFilters } from './history-query.js';
import { HistoryTable } from './history-table.js';
import { selectVisibleRows, wantsMoreRows } from './session-rows.js';
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
      Every execution shows up here: an agent calling <code>run_python</code>, <code>npm run -s sandbar -- run</code> in a terminal, or a re-run from
      this panel.
    </EmptyState>
  );
}

/** Above the table while it shows one session's calls: which session, how many, and the way back. */
function SessionFocusBar() {
  const s = useHistoryStore(
    useShallow((st) => ({ focus: st.sessionFocus, shown: selectVisibleRows(st).length, more: wantsMoreRows(st.rows, st.nextCursor, st.sessionFocus) })),
  );
  if (s.focus === null) return null;
  return (
    <div className="hist-session-bar" role="status">
      <span>
        {callCount(s.shown)} of session <code title={s.focus}>{shortSessionId(s.focus)}</code>
        {s.more ? ' loaded so far; looking for earlier calls…' : ', newest first'}
      </span>
      <Button size="sm" variant="ghost" onClick={() => useHistoryStore.getState().sessionFocused(null)}>
        Show all runs
      </Button>
    </div>
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
    useShallow((st) => ({
      phase: st.phase,
      error: st.error,
      empty: st.rows.length === 0 && st.pending.length === 0,
      filtered: hasActiveFilters(st.filters),
      // In a session's focus, nothing of it loaded and nothing more to look through.
      sessionEmpty: st.sessionFocus !== null && selectVisibleRows(st).length === 0 && !wantsMoreRows(st.rows, st.nextCursor, st.sessionFocus),
    })),
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
  if (s.sessionEmpty) {
    return (
      <div className="hist-empty">
        <EmptyState title="None of this session's calls are listed" actions={<Button onClick={() => useHistoryStore.getState().sessionFocused(null)}>Show all runs</Button>}>
          {s.filtered ? 'The filters hide them.' : 'Retention may have removed them.'}
        </EmptyState>
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
      <SessionFocusBar />
      <div className="hist-main">
        <HistoryBody onOpen={open} gridRef={gridRef} />
        {detailOpen && <HistoryDetailPane onClose={close} />}
      </div>
    </section>
  );
}
