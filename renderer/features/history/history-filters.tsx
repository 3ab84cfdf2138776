// The filter bar: full-text search (debounced in the store), status, client, server and time range.
import { type KeyboardEvent, type RefObject, useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { HISTORY_STATUSES, type HistoryStatus } from '../../../shared/history.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { useHistoryStore } from '../../stores/history-store.js';
import { statusLabel, statusTone } from './describe-exit.js';
import { hasActiveFilters, type TimeRange } from './history-query.js';

const RANGES: { value: TimeRange; label: string }[] = [
  { value: 'all', label: 'All time' },
  { value: 'hour', label: 'Last hour' },
  { value: 'day', label: 'Last 24 hours' },
  { value: 'week', label: 'Last 7 days' },
  { value: 'custom', label: 'Between…' },
];

const pad = (n: number) => String(n).padStart(2, '0');

/** Epoch ms as a `datetime-local` value, in local time. */
/** One of the history's facets (client, server) as a select; '' is "All". */
function FacetSelect({ label, value, values, onChange }: { label: string; value: string | null; values: string[]; onChange: (value: string | null) => void }) {
  return (
    <label className="hist-field">
      <span>{label}</span>
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">All</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );
}

export function toLocalInput(ms: number | null): string {
  if (ms === null) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (local time, no offset) as epoch ms. */
export function fromLocalInput(value: string): number | null {
  if (!value) return null;
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? null : t;
}

function StatusMenu({ selected, offered }: { selected: HistoryStatus[]; offered: readonly HistoryStatus[] }) {
  const ref = useRef<HTMLDetailsElement>(null);
  // A menu closes when the pointer goes elsewhere.
  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      if (ref.current?.open && !ref.current.contains(e.target as Node)) ref.current.open = false;
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, []);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && ref.current?.open) {
      e.stopPropagation();
      e.nativeEvent.stopImmediatePropagation();
      ref.current.open = false;
      ref.current.querySelector('summary')?.focus();
    }
  };
  const toggle = (status: HistoryStatus) => {
    const next = selected.includes(status) ? selected.filter((x) => x !== status) : [...selected, status];
    useHistoryStore.getState().filtersChanged({ statuses: next });
  };
  const summary = selected.length === 0 ? 'any' : selected.length === 1 ? statusLabel(selected[0]!) : `${selected.length} selected`;
  return (
    <details className="hist-menu" ref={ref} onKeyDown={onKeyDown}>
      <summary aria-label={`Status filter: ${summary}`}>
        Status: <strong>{summary}</strong>
      </summary>
      <fieldset className="hist-menu-list">
        <legend className="sr-only">Show runs with status</legend>
        {offered.map((status) => (
          <label key={status} className="hist-check">
            <input type="checkbox" checked={selected.includes(status)} onChange={() => toggle(status)} />
            <Badge tone={statusTone(status)}>{statusLabel(status)}</Badge>
          </label>
        ))}
      </fieldset>
    </details>
  );
}

export function HistoryFilters({ searchRef }: { searchRef: RefObject<HTMLInputElement | null> }) {
  const { filters, searchText, facets } = useHistoryStore(useShallow((s) => ({ filters: s.filters, searchText: s.searchText, facets: s.facets })));
  const store = useHistoryStore.getState();
  const offered = HISTORY_STATUSES.filter((x) => !facets || facets.statuses.length === 0 || facets.statuses.includes(x) || filters.statuses.includes(x));
  const clients = [...new Set([...(facets?.clients ?? []), ...(filters.client ? [filters.client] : [])])];
  const servers = [...new Set([...(facets?.servers ?? []), ...(filters.server ? [filters.server] : [])])];

  return (
    <form
      className="hist-filters"
      role="search"
      aria-label="Filter history"
      onSubmit={(e) => {
        e.preventDefault();
        store.searchSubmitted();
      }}
    >
      <label className="hist-search">
        <span className="sr-only">Search code and output</span>
        <input
          ref={searchRef}
          type="search"
          value={searchText}
          placeholder="Search code and output   /"
          aria-keyshortcuts="/"
          maxLength={500}
          onChange={(e) => store.searchTyped(e.target.value)}
        />
      </label>
      <StatusMenu selected={filters.statuses} offered={offered} />
      <FacetSelect label="Client" value={filters.client} values={clients} onChange={(client) => store.filtersChanged({ client })} />
      <FacetSelect label="Server" value={filters.server} values={servers} onChange={(server) => store.filtersChanged({ server })} />
      <label className="hist-field">
        <span>Time</span>
        <select value={filters.range} onChange={(e) => store.filtersChanged({ range: e.target.value as TimeRange })}>
          {RANGES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      {filters.range === 'custom' && (
        <>
          <label className="hist-field">
            <span>From</span>
            <input type="datetime-local" value={toLocalInput(filters.from)} onChange={(e) => store.filtersChanged({ from: fromLocalInput(e.target.value) })} />
          </label>
          <label className="hist-field">
            <span>To</span>
            <input type="datetime-local" value={toLocalInput(filters.to)} onChange={(e) => store.filtersChanged({ to: fromLocalInput(e.target.value) })} />
          </label>
        </>
      )}
      {(hasActiveFilters(filters) || searchText.trim() !== '') && (
        <Button size="sm" variant="ghost" onClick={() => store.filtersCleared()}>
          Clear filters
        </Button>
      )}
    </form>
  );
}
