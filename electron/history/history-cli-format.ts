// `sandbar history`: its flags turned into a query, and a page turned into a table or JSON. Pure functions;
// the command itself (electron/cli) only opens the store and prints.
import { hasControlChars } from '../../shared/control-chars.js';
import { displayLine, escapeInvisible } from '../../shared/display-text.js';
import { AppError } from '../../shared/errors.js';
import { snippetText } from './history-query.js';
import { HISTORY_STATUSES, isHistoryStatus, type HistoryItem, type HistoryPage, type HistoryQuery } from '../../shared/history.js';

export interface HistoryFlags {
  limit?: string | number;
  status?: string;
  search?: string;
}

/** Validates the command's flags; `--status` takes one status or a comma-separated list. */
export function historyQueryFromFlags(flags: HistoryFlags): HistoryQuery {
  const query: HistoryQuery = { limit: 20 };
  if (flags.limit !== undefined) {
    const limit = Number(flags.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new AppError('invalid_request', `--limit must be a whole number from 1 to 500, not ${String(flags.limit)}`);
    query.limit = limit;
  }
  if (flags.status !== undefined) {
    const statuses = flags.status.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = statuses.filter((s) => !isHistoryStatus(s));
    if (bad.length > 0 || statuses.length === 0) {
      throw new AppError('invalid_request', `--status must be one of ${HISTORY_STATUSES.join(', ')}; got ${flags.status}`);
    }
    query.status = statuses.filter(isHistoryStatus);
  }
  if (flags.search !== undefined && hasControlChars(flags.search)) throw new AppError('invalid_request', '--search must not contain control characters');
  if (flags.search !== undefined && flags.search.trim() !== '') query.search = flags.search;
  return query;
}

/**
 * `--json`: the same page the panel receives (epoch-ms times, snippet as parts), one document. JSON already
 * escapes C0; DEL, C1 (a terminal reads U+009B as CSI), bidi and invisible characters are escaped too, so
 * nothing is lost, obeyed or hidden.
 */
export function formatHistoryJson(page: HistoryPage): string {
  return `${escapeInvisible(JSON.stringify(page, null, 2))}\n`;
}

export interface TableOptions {
  /** Local time by default; tests pass a fixed formatter. */
  formatTime?: (ms: number) => string;
  /** Characters for the code column. */
  codeWidth?: number;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

export function localTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '-';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} m ${Math.round((ms % 60_000) / 1000)} s`;
}

/** One table cell: recorded text (code, client names) may hold escape sequences; a terminal gets none. */
const oneLine = displayLine;

function clientOf(item: HistoryItem): string {
  return oneLine(item.client.version ? `${item.client.name} ${item.client.version}` : item.client.name, 60);
}

/** A plain-text table, newest first; search results get their snippet (hits in [brackets]) under the row. */
export function formatHistoryTable(page: HistoryPage, options: TableOptions = {}): string {
  if (page.items.length === 0) return 'No executions recorded.\n';
  const time = options.formatTime ?? localTime;
  const header = ['ID', 'QUEUED', 'CLIENT', 'STATUS', 'EXIT', 'DURATION', 'SERVERS', 'CODE'];
  const rows = page.items.map((item) => [
    item.id.slice(0, 8),
    time(item.queuedAt),
    clientOf(item),
    item.status,
    item.exitCode === null ? '-' : String(item.exitCode),
    formatDuration(item.durationMs),
    item.servers.length ? oneLine(item.servers.join(','), 60) : '-',
    oneLine(item.codePreview, options.codeWidth ?? 40),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const out = [line(header)];
  page.items.forEach((item, i) => {
    out.push(line(rows[i]!));
    if (item.snippet) out.push(`    ${oneLine(snippetText(item.snippet), 100)}`);
    if (item.toolCallsDropped) out.push(`    ${item.toolCallCount} tool calls recorded; ${item.toolCallsDropped} more not recorded (per-run cap)`);
  });
  if (page.nextCursor) out.push(`… more: raise --limit to see older runs`);
  return `${out.join('\n')}\n`;
}
