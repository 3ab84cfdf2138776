// The history grid: fixed-height rows, virtualised so only the visible ones (and a few more) are in the
// DOM whatever the number loaded; pages load as the end comes near; keyboard moves the selection.
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, memo, type MouseEvent, type RefObject, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { HistoryItem } from '../../../shared/history.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { clientLabel, formatDateTime } from '../../lib/format.js';
import { sessionCallLabel } from '../../lib/session-format.js';
import { useHistoryStore } from '../../stores/history-store.js';
import { useSessionsStore } from '../../stores/sessions-store.js';
import { statusLabel, statusTone } from './describe-exit.js';
import { codeExcerpt, formatMaybeDuration, formatRowTime, oneLine } from './format.js';
import { markHistoryFirstRows } from './history-perf.js';
import { callCheckpoint, selectSessionCallMarks, selectVisibleRows, wantsMoreRows } from './session-rows.js';
import { SnippetText } from './snippet-text.js';

export const ROW_HEIGHT = 32;
/** Start loading the next page when the last rendered row is this close to the end of what is loaded. */
export const LOAD_AHEAD_ROWS = 80;
const OVERSCAN = 8;
const COLUMNS = ['Time', 'Client', 'Status', 'Duration', 'Servers', 'Code'] as const;

export const rowDomId = (index: number) => `history-row-${index}`;

function scrollToTop(el: HTMLElement | null): void {
  if (!el) return;
  if (typeof el.scrollTo === 'function') el.scrollTo({ top: 0 });
  else el.scrollTop = 0;
}

interface RowProps {
  item: HistoryItem;
  index: number;
  selected: boolean;
  searching: boolean;
  /** A session call a later step back discarded (issue 28). */
  discarded: boolean;
  /** The call whose checkpoint this one continued from, when it stepped back. */
  from: number | null;
  /** Its live session keeps this call's checkpoint: `<id>@<n>` can return to it now. */
  checkpoint: boolean;
}

const HistoryRow = memo(function HistoryRow({ item, index, selected, searching, discarded, from, checkpoint }: RowProps) {
  const client = clientLabel(item.client);
  const servers = oneLine(item.servers.join(', '));
  return (
    <div
      role="row"
      id={rowDomId(index)}
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-id={item.id}
      className={`hist-row${selected ? ' is-selected' : ''}${discarded ? ' is-discarded' : ''}`}
      style={{ transform: `translateY(${index * ROW_HEIGHT}px)` }}
    >
      <div role="gridcell" className="hist-c-time" title={formatDateTime(item.queuedAt)}>
        {formatRowTime(item.queuedAt)}
      </div>
      <div role="gridcell" className="hist-c-client" title={client}>
        {oneLine(item.client.name)}
      </div>
      <div role="gridcell">
        <Badge tone={statusTone(item.status)}>{statusLabel(item.status)}</Badge>
      </div>
      <div role="gridcell" className="hist-c-num">
        {item.status === 'running' || item.status === 'queued' ? '…' : formatMaybeDuration(item.durationMs)}
      </div>
      <div role="gridcell" className="hist-c-servers" title={servers}>
        {servers || <span className="hist-muted">—</span>}
      </div>
      <div role="gridcell" className="hist-c-code">
        {item.session && (
          // Not in the tab order (the grid is one tab stop); the keyboard way is "s" on the selected row.
          <button type="button" className="hist-session" data-session={item.session.id} tabIndex={-1} title="Show only this session's calls (s)">
            {sessionCallLabel(item.session)}
            {from !== null && ` · from @${from}`}
          </button>
        )}
        {checkpoint && item.session && (
          <span className="hist-checkpoint" title={`A checkpoint of this call is kept: session "<id>@${item.session.call}" continues from right after it`}>
            checkpoint
          </span>
        )}
        {discarded && (
          <span className="hist-discarded" title="A later call stepped back to an earlier checkpoint: this call's effects are gone">
            discarded
          </span>
        )}
        {searching && item.snippet ? <SnippetText parts={item.snippet} /> : codeExcerpt(item.codePreview)}
      </div>
    </div>
  );
});

function TailRow({ index, loading, error, onRetry }: { index: number; loading: boolean; error: string | null; onRetry(): void }) {
  return (
    <div role="row" aria-rowindex={index + 2} className="hist-row hist-row-tail" style={{ transform: `translateY(${index * ROW_HEIGHT}px)` }}>
      <div role="gridcell" aria-colspan={COLUMNS.length} className="hist-tail">
        {error !== null ? (
          <span role="alert" className="hist-error-text">
            Could not load more runs: {error}{' '}
            <Button size="sm" variant="ghost" onClick={onRetry}>
              Retry
            </Button>
          </span>
        ) : (
          <span className="hist-muted">{loading ? 'Loading more runs…' : ''}</span>
        )}
      </div>
    </div>
  );
}

export function HistoryTable({ onOpen, gridRef }: { onOpen(id: string): void; gridRef: RefObject<HTMLDivElement | null> }) {
  const s = useHistoryStore(
    useShallow((st) => ({
      rows: selectVisibleRows(st),
      marks: selectSessionCallMarks(st),
      selectedId: st.selectedId,
      hasMore: wantsMoreRows(st.rows, st.nextCursor, st.sessionFocus),
      loadingMore: st.loadingMore,
      moreError: st.moreError,
      searching: st.filters.search !== '',
      busy: st.phase === 'loading',
      listVersion: st.listVersion,
      pending: st.pending.length,
      finishedDuringSearch: st.finishedDuringSearch,
    })),
  );
  const actions = useHistoryStore.getState();
  const live = useSessionsStore((st) => st.sessions);
  const keepsCheckpoint = (row: HistoryItem, discarded: boolean) => !!row.session && callCheckpoint(row.session, discarded, live).kind === 'kept';
  const scrollRef = useRef<HTMLDivElement>(null);
  const atTopRef = useRef(true);
  const showTail = s.hasMore || s.moreError !== null;
  const count = s.rows.length + (showTail ? 1 : 0);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    // Used until the element is measured (first render, and jsdom, which measures nothing).
    initialRect: { width: 1000, height: 20 * ROW_HEIGHT },
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1]!.index : -1;

  const selectedIndex = useMemo(() => (s.selectedId === null ? -1 : s.rows.findIndex((r) => r.id === s.selectedId)), [s.rows, s.selectedId]);

  // Next page when the end of what is loaded comes into (or near) view.
  useEffect(() => {
    if (s.hasMore && !s.loadingMore && s.moreError === null && lastIndex >= s.rows.length - LOAD_AHEAD_ROWS) actions.endReached();
  }, [s.hasMore, s.loadingMore, s.moreError, lastIndex, s.rows.length, actions]);

  // A new listing (filters changed) starts at its top.
  useLayoutEffect(() => {
    scrollToTop(scrollRef.current);
  }, [s.listVersion]);

  // Keep the selected row in view as it moves (not when rows arrive above it).
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [s.selectedId]); // on selection only: not when rows arrive above it

  useLayoutEffect(() => {
    if (s.rows.length > 0) markHistoryFirstRows(scrollRef.current?.querySelectorAll('[role="row"]').length ?? 0);
  }, [s.rows.length]);

  const onScroll = () => {
    const atTop = (scrollRef.current?.scrollTop ?? 0) < ROW_HEIGHT / 2;
    if (atTop !== atTopRef.current) {
      atTopRef.current = atTop;
      actions.scrolled(atTop);
    }
  };

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const row = (e.target as HTMLElement).closest<HTMLElement>('[data-id]');
    const id = row?.dataset.id;
    if (!id) return;
    actions.rowSelected(id);
    const session = (e.target as HTMLElement).closest<HTMLElement>('[data-session]')?.dataset.session;
    if (session) actions.sessionFocused(session);
    else onOpen(id);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight || 10 * ROW_HEIGHT) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -Infinity, End: Infinity };
    const delta = moves[e.key];
    if (delta !== undefined) {
      e.preventDefault();
      actions.selectionMoved(delta);
    } else if (e.key === 'Enter' && s.selectedId !== null) {
      e.preventDefault();
      onOpen(s.selectedId);
    } else if (e.key === 's' && !e.altKey && !e.ctrlKey && !e.metaKey) {
      const session = s.rows.find((r) => r.id === s.selectedId)?.session;
      if (session) {
        e.preventDefault();
        actions.sessionFocused(session.id);
      }
    }
  };

  const showNewRuns = () => {
    actions.newRunsShown();
    scrollToTop(scrollRef.current);
  };

  return (
    <div
      ref={gridRef}
      className={s.busy ? 'hist-grid is-busy' : 'hist-grid'}
      role="grid"
      aria-label="Execution history"
      aria-rowcount={s.hasMore ? -1 : s.rows.length + 1}
      aria-colcount={COLUMNS.length}
      aria-busy={s.busy}
      aria-activedescendant={selectedIndex >= 0 ? rowDomId(selectedIndex) : undefined}
      aria-keyshortcuts="s"
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup" className="hist-head">
        <div role="row" aria-rowindex={1} className="hist-row hist-row-head">
          {COLUMNS.map((c) => (
            <div role="columnheader" key={c} className={c === 'Duration' ? 'hist-c-num' : undefined}>
              {c}
            </div>
          ))}
        </div>
      </div>
      {s.finishedDuringSearch > 0 && (
        <button type="button" className="hist-pill" onClick={() => actions.searchSubmitted()}>
          {s.finishedDuringSearch === 1 ? '1 run finished' : `${s.finishedDuringSearch.toLocaleString()} runs finished`} since this search — search again
        </button>
      )}
      {s.pending > 0 && (
        <button type="button" className="hist-pill" onClick={showNewRuns}>
          {s.pending === 1 ? '1 new run' : `${s.pending.toLocaleString()} new runs`} — show
        </button>
      )}
      <div role="rowgroup" className="hist-body" ref={scrollRef} onScroll={onScroll} onClick={onClick} tabIndex={-1}>
        <div className="hist-spacer" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((v) =>
            v.index < s.rows.length ? (
              <HistoryRow
                key={s.rows[v.index]!.id}
                item={s.rows[v.index]!}
                index={v.index}
                selected={v.index === selectedIndex}
                searching={s.searching}
                discarded={s.marks.get(s.rows[v.index]!.id)?.discarded ?? false}
                from={s.marks.get(s.rows[v.index]!.id)?.from ?? null}
                checkpoint={keepsCheckpoint(s.rows[v.index]!, s.marks.get(s.rows[v.index]!.id)?.discarded ?? false)}
              />
            ) : (
              <TailRow key="tail" index={v.index} loading={s.loadingMore} error={s.moreError} onRetry={actions.retryRequested} />
            ),
          )}
        </div>
      </div>
    </div>
  );
}
