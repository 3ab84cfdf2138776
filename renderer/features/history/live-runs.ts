// Where a run that arrives by event goes: updated in place where it is shown, shown at the top, held
// behind the "new runs" pill, or buffered while a first page loads. Pure; the store applies the result.
import type { HistoryFacets } from '../../../shared/contract.js';
import type { HistoryItem } from '../../../shared/history.js';
import { type HistoryFilters, insertNewest, laterVersion, matchesFilters } from './history-query.js';

export interface LiveLists {
  rows: HistoryItem[];
  pending: HistoryItem[];
  /** Runs seen while a first page is loading (merged into it when it answers). */
  early: HistoryItem[];
}

export interface LiveContext {
  filters: HistoryFilters;
  phase: 'idle' | 'loading' | 'ready' | 'error';
  /** The list is scrolled to its top, so a new row can show without moving what the user reads. */
  atTop: boolean;
}

/** Builds the run's new version from the one shown (if any); null when the event changes nothing. */
export type MakeRun = (known: HistoryItem | undefined) => HistoryItem | null;

function replaceAt(list: HistoryItem[], at: number, next: HistoryItem): HistoryItem[] {
  const copy = list.slice();
  copy[at] = laterVersion(list[at]!, next);
  return copy;
}

/** The lists that change (only those) and the run's new version. */
export function placeLiveRun(lists: LiveLists, ctx: LiveContext, id: string, make: MakeRun): { patch: Partial<LiveLists>; run: HistoryItem | null } {
  if (ctx.phase === 'loading') {
    // The rows on screen belong to the previous filters; the buffer goes into the new first page.
    const at = lists.early.findIndex((r) => r.id === id);
    const run = make(at >= 0 ? lists.early[at] : undefined);
    if (!run) return { patch: {}, run: null };
    if (at >= 0) return { patch: { early: replaceAt(lists.early, at, run) }, run };
    return { patch: matchesFilters(run, ctx.filters) ? { early: insertNewest(lists.early, run) } : {}, run };
  }
  const inRows = lists.rows.findIndex((r) => r.id === id);
  if (inRows >= 0) {
    const run = make(lists.rows[inRows]);
    return run ? { patch: { rows: replaceAt(lists.rows, inRows, run) }, run } : { patch: {}, run: null };
  }
  const inPending = lists.pending.findIndex((r) => r.id === id);
  const run = make(inPending >= 0 ? lists.pending[inPending] : undefined);
  if (!run) return { patch: {}, run: null };
  const admitted = matchesFilters(run, ctx.filters);
  if (inPending >= 0) {
    const pending = admitted ? replaceAt(lists.pending, inPending, run) : lists.pending.filter((_, i) => i !== inPending);
    return { patch: { pending }, run };
  }
  // Nothing loaded yet (or it failed): the next first page brings it.
  if (!admitted || ctx.phase === 'idle' || ctx.phase === 'error') return { patch: {}, run };
  return { patch: ctx.atTop ? { rows: insertNewest(lists.rows, run) } : { pending: insertNewest(lists.pending, run) }, run };
}

/** The facets with a live run's client, servers and status added; the same object when nothing is new. */
export function withFacetsOf(f: HistoryFacets, run: HistoryItem): HistoryFacets {
  const clients = f.clients.includes(run.client.name) ? f.clients : [...f.clients, run.client.name].sort();
  const newServers = run.servers.filter((x) => !f.servers.includes(x));
  const servers = newServers.length ? [...f.servers, ...newServers].sort() : f.servers;
  const statuses = f.statuses.includes(run.status) ? f.statuses : [...f.statuses, run.status];
  return clients === f.clients && servers === f.servers && statuses === f.statuses ? f : { clients, servers, statuses };
}
