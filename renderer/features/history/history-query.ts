// The History view's filters as data: what they ask the server, whether a live run passes them, and how
// rows that arrive by event merge with pages that arrive by query. Pure, so the store stays small.
import type { FinishedExecution, MethodArgs } from '../../../shared/contract.js';
import type { ExecutionSummary } from '../../../shared/execution.js';
import type { HistoryItem, HistoryStatus } from '../../../shared/history.js';
import type { SessionRef } from '../../../shared/sessions.js';

export const PAGE_SIZE = 200;
/** Characters of code a listing row carries (the server's preview length). */
export const PREVIEW_CHARS = 300;

export type TimeRange = 'all' | 'hour' | 'day' | 'week' | 'custom';

export const RANGE_MS: Record<Exclude<TimeRange, 'all' | 'custom'>, number> = {
  hour: 60 * 60 * 1000,
  day: 24 * 60 * 60 * 1000,
  week: 7 * 24 * 60 * 60 * 1000,
};

export interface HistoryFilters {
  statuses: HistoryStatus[];
  client: string | null;
  server: string | null;
  range: TimeRange;
  /** Bounds of a custom range, epoch ms (from inclusive, to exclusive); ignored for the other ranges. */
  from: number | null;
  to: number | null;
  /** Applied search text (the box's text after the debounce), trimmed. */
  search: string;
}

export const DEFAULT_FILTERS: HistoryFilters = { statuses: [], client: null, server: null, range: 'all', from: null, to: null, search: '' };

export type ListQuery = MethodArgs<'executions.list'>;

export function hasActiveFilters(f: HistoryFilters): boolean {
  return (
    f.statuses.length > 0 ||
    f.client !== null ||
    f.server !== null ||
    f.search !== '' ||
    (f.range !== 'all' && (f.range !== 'custom' || f.from !== null || f.to !== null))
  );
}

export function sameFilters(a: HistoryFilters, b: HistoryFilters): boolean {
  return (
    a.client === b.client &&
    a.server === b.server &&
    a.range === b.range &&
    a.from === b.from &&
    a.to === b.to &&
    a.search === b.search &&
    a.statuses.length === b.statuses.length &&
    a.statuses.every((s) => b.statuses.includes(s))
  );
}

/**
 * The first page's query. Relative ranges are resolved here, once, and the result is kept for the
 * following pages so one listing never mixes two meanings of "the last hour".
 */
export function toListQuery(f: HistoryFilters, now: number): ListQuery {
  const q: ListQuery = { limit: PAGE_SIZE };
  if (f.statuses.length > 0) q.status = [...f.statuses];
  if (f.client !== null) q.client = f.client;
  if (f.server !== null) q.server = f.server;
  if (f.range === 'custom') {
    if (f.from !== null) q.from = f.from;
    if (f.to !== null) q.to = f.to;
  } else if (f.range !== 'all') {
    q.from = now - RANGE_MS[f.range];
  }
  if (f.search !== '') q.search = f.search;
  return q;
}

/**
 * Whether a run that just appeared belongs in the current listing. Search is answered by the server's
 * full-text index, which a client-side guess would contradict, so a search never admits live runs.
 */
export function matchesFilters(item: HistoryItem, f: HistoryFilters): boolean {
  if (f.search !== '') return false;
  if (f.statuses.length > 0 && !f.statuses.includes(item.status)) return false;
  if (f.client !== null && item.client.name !== f.client) return false;
  if (f.server !== null && !item.servers.includes(f.server)) return false;
  if (f.range === 'custom') {
    if (f.from !== null && item.queuedAt < f.from) return false;
    if (f.to !== null && item.queuedAt >= f.to) return false;
  }
  // 'hour', 'day', 'week' reach up to now, and a live run is from now.
  return true;
}

/**
 * A live run's place in its session, when its event carries one (the engine adds `session` to a session
 * call's summary), so a row that arrives by event shows its label and stays in a session's focus.
 */
function sessionField(e: object): { session?: SessionRef } {
  const session = (e as { session?: SessionRef }).session;
  return session ? { session: { id: session.id, call: session.call } } : {};
}

export function itemFromQueued(e: ExecutionSummary): HistoryItem {
  return {
    id: e.id,
    client: { name: e.client?.name ?? 'unknown', version: e.client?.version ?? null },
    transport: e.client?.transport ?? null,
    codePreview: e.code.slice(0, PREVIEW_CHARS),
    servers: [...e.servers],
    status: 'queued',
    exitReason: null,
    exitCode: null,
    queuedAt: e.queuedAt,
    startedAt: null,
    finishedAt: null,
    durationMs: null,
    error: null,
    toolCallCount: 0,
    ...sessionField(e),
  };
}

/** A finished run as a row; `known` is the row already shown for it (queued or running), if any. */
export function itemFromFinished(r: FinishedExecution, known: HistoryItem | undefined, toolCalls: number): HistoryItem {
  return {
    id: r.id,
    client: known?.client ?? { name: r.client?.name ?? 'unknown', version: r.client?.version ?? null },
    transport: known?.transport ?? r.client?.transport ?? null,
    codePreview: known?.codePreview ?? r.code.slice(0, PREVIEW_CHARS),
    servers: known?.servers ?? [...r.servers],
    status: r.exitReason,
    exitReason: r.exitReason,
    exitCode: r.exitCode,
    queuedAt: r.queuedAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    durationMs: r.durationMs,
    error: r.message ?? null,
    toolCallCount: Math.max(known?.toolCallCount ?? 0, toolCalls),
    ...(known?.session ? { session: known.session } : sessionField(r)),
  };
}

const SETTLED_RANK: Record<HistoryStatus, number> = {
  queued: 0,
  running: 1,
  interrupted: 2,
  success: 3,
  error: 3,
  timeout: 3,
  memory: 3,
  cancelled: 3,
  output_limit: 3,
  runtime_error: 3,
  protocol_abuse: 3,
};

/** Of two versions of one run, the one further along (a page can be older than an event, or newer). */
export function laterVersion(a: HistoryItem, b: HistoryItem): HistoryItem {
  return SETTLED_RANK[b.status] > SETTLED_RANK[a.status] ? b : a;
}

/** Where a run queued at `queuedAt` goes in a newest-first list (before the first older row). */
export function insertionIndex(rows: readonly HistoryItem[], queuedAt: number): number {
  // Live runs land at or near the top, so a forward scan stops almost at once.
  for (let i = 0; i < rows.length; i++) if (rows[i]!.queuedAt < queuedAt) return i;
  return rows.length;
}

/** `rows` with `item` placed by its queue time, newest first. */
export function insertNewest(rows: readonly HistoryItem[], item: HistoryItem): HistoryItem[] {
  const at = insertionIndex(rows, item.queuedAt);
  return [...rows.slice(0, at), item, ...rows.slice(at)];
}

/**
 * The first page, plus any runs that arrived by event while it was loading. A run in both keeps its
 * later version; one only in the event list is kept when it is newer than the page's last row.
 */
export function mergeFirstPage(early: readonly HistoryItem[], page: readonly HistoryItem[], lastPage: boolean): HistoryItem[] {
  if (early.length === 0) return [...page];
  const byId = new Map(early.map((r) => [r.id, r]));
  const merged = page.map((r) => {
    const seen = byId.get(r.id);
    if (!seen) return r;
    byId.delete(r.id);
    return laterVersion(r, seen);
  });
  const oldest = page[page.length - 1]?.queuedAt ?? -Infinity;
  let out = merged;
  for (const r of byId.values()) if (lastPage || r.queuedAt >= oldest) out = insertNewest(out, r);
  return out;
}

/** Rows after a later page; a run already listed (it arrived by event) keeps its place and is not repeated. */
export function appendPage(rows: readonly HistoryItem[], page: readonly HistoryItem[]): HistoryItem[] {
  if (page.length === 0) return rows as HistoryItem[];
  const ids = new Set(page.map((r) => r.id));
  const listed = new Set<string>();
  for (const r of rows) if (ids.has(r.id)) listed.add(r.id);
  return listed.size === 0 ? [...rows, ...page] : [...rows, ...page.filter((r) => !listed.has(r.id))];
}
