// Answers the panel and the CLI: newest-first keyset pages with filters and full-text search, one run in
// detail with its tool calls, and counts by status.
import { APPROVAL_DECISIONS, type ApprovalOutcome } from '../../shared/approvals.js';
import type { Artifact, ArtifactMeta, ArtifactSource, RefusedArtifact } from '../../shared/artifacts.js';
import type { ExitReason } from '../../shared/execution.js';
import type { RunFolder } from '../../shared/folders.js';
import { MAX_EGRESS_RECORDS, type EgressRecord } from '../../shared/egress-audit.js';
import type { PackagesUsed } from '../../shared/packages.js';
import type { Limits } from '../../shared/limits.js';
import { decodeCursor, encodeCursor, HIT_CLOSE, HIT_OPEN, parseSnippet, SNIPPET_ELLIPSIS, toFtsQuery } from './history-query.js';
import {
  HISTORY_STATUSES,
  type HistoryDetail,
  type HistoryItem,
  type HistoryPage,
  type HistoryQuery,
  type HistoryStatus,
  type HistoryToolCall,
  type StatusCounts,
} from '../../shared/history.js';
import type { SqlDriver, SqlStatement, SqlValue } from './sqlite-driver.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;
const PREVIEW_CHARS = 300;
/** Tokens of context in a search snippet. */
const SNIPPET_TOKENS = 16;

interface ItemRow {
  seq: number;
  id: string;
  client_name: string;
  client_version: string | null;
  transport: string | null;
  status: HistoryStatus;
  exit_reason: ExitReason | null;
  exit_code: number | null;
  queued_at: number;
  started_at: number | null;
  finished_at: number | null;
  duration_ms: number | null;
  error: string | null;
  servers: string;
  session_id: string | null;
  session_call: number | null;
  tool_calls: number;
  tool_calls_dropped: number;
  code_preview: string;
  snippet?: string;
}

interface DetailRow extends BaseRow {
  code: string;
  limits: string | null;
  timeout_sec: number | null;
  stdout: string;
  stderr: string;
  stdout_truncated: number;
  stderr_truncated: number;
  container_name: string | null;
  refused_artifacts: string | null;
  packages: string | null;
  folders?: string | null;
  egress?: string | null;
  egress_dropped?: number;
}

interface ArtifactRow {
  name: string;
  mime_type: string;
  size: number;
  source: ArtifactSource;
  width: number | null;
  height: number | null;
  title: string | null;
}

function toArtifactMeta(row: ArtifactRow): ArtifactMeta {
  return {
    name: row.name,
    mimeType: row.mime_type,
    size: row.size,
    source: row.source,
    ...(row.width !== null ? { width: row.width } : {}),
    ...(row.height !== null ? { height: row.height } : {}),
    ...(row.title !== null ? { title: row.title } : {}),
  };
}

function parsePackages(json: string | null): PackagesUsed | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as PackagesUsed | null;
    return value && Array.isArray(value.requirements) ? value : null;
  } catch {
    return null;
  }
}

/** The folders a run had; anything unreadable reads as none (the row is still shown). */
function parseFolders(json: string | null): RunFolder[] {
  if (!json) return [];
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.filter((f): f is RunFolder => typeof f?.name === 'string' && typeof f?.mountPath === 'string' && typeof f?.path === 'string').map((f) => ({ name: f.name, mountPath: f.mountPath, writable: f.writable === true, path: f.path })) : [];
  } catch {
    return [];
  }
}

const text = (v: unknown) => typeof v === 'string';
const count = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;

/** A run's egress records, field by field; anything unreadable reads as none (the row is still shown). */
function parseEgress(json: string | null): EgressRecord[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return (value as Record<string, unknown>[])
      .filter((r) => r && text(r.host) && count(r.port) && (r.decision === 'allowed' || r.decision === 'denied') && count(r.bytesOut) && count(r.bytesIn))
      .slice(0, MAX_EGRESS_RECORDS)
      .map((r) => ({
        host: r.host as string,
        port: r.port as number,
        decision: r.decision as EgressRecord['decision'],
        bytesOut: r.bytesOut as number,
        bytesIn: r.bytesIn as number,
        ...(text(r.reason) ? { reason: r.reason as string } : {}),
        ...(text(r.secret) ? { secret: r.secret as string } : {}),
        ...(text(r.method) ? { method: r.method as string } : {}),
        ...(text(r.path) ? { path: r.path as string } : {}),
        ...(count(r.status) ? { status: r.status as number } : {}),
      }));
  } catch {
    return [];
  }
}

function parseRefused(json: string | null): RefusedArtifact[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value as RefusedArtifact[]) : [];
  } catch {
    return [];
  }
}

interface ApprovalRow {
  approval_id: string;
  execution_id: string;
  server: string;
  tool: string;
  args_hash: string;
  decision: string;
  decided_by: string;
  decided_at: number;
}

const OUTCOMES: readonly string[] = [...APPROVAL_DECISIONS, 'timeout', 'cancelled'];

function toApprovalOutcome(row: ApprovalRow): ApprovalOutcome {
  return {
    id: row.approval_id,
    runId: row.execution_id,
    server: row.server,
    tool: row.tool,
    argsHash: row.args_hash,
    // Written by this code from a closed set; an unknown word (a newer Sandbar's) never reads as an allow.
    decision: (OUTCOMES.includes(row.decision) ? row.decision : 'deny') as ApprovalOutcome['decision'],
    by: row.decided_by,
    at: row.decided_at,
  };
}

interface ToolCallRow {
  server: string;
  tool: string;
  started_at: number;
  duration_ms: number;
  is_error: number;
  bytes_in: number;
  bytes_out: number;
  error: string | null;
}

const ITEM_COLUMNS = `e.seq, e.id, e.client_name, e.client_version, e.transport, e.status, e.exit_reason, e.exit_code,
  e.queued_at, e.started_at, e.finished_at, e.duration_ms, e.error, e.servers, e.session_id, e.session_call, e.tool_calls_dropped,
  (SELECT count(*) FROM tool_calls t WHERE t.execution_id = e.id) AS tool_calls, substr(e.code, 1, ${PREVIEW_CHARS}) AS code_preview`;

function parseServers(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

type BaseRow = Omit<ItemRow, 'code_preview' | 'snippet' | 'tool_calls'>;

/** The fields a listing row and a detail share. */
function baseFields(row: BaseRow) {
  return {
    id: row.id,
    client: { name: row.client_name, version: row.client_version },
    transport: row.transport,
    servers: parseServers(row.servers),
    status: row.status,
    exitReason: row.exit_reason,
    exitCode: row.exit_code,
    queuedAt: row.queued_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    durationMs: row.duration_ms,
    error: row.error,
    ...(row.session_id && row.session_call !== null ? { session: { id: row.session_id, call: row.session_call } } : {}),
    ...(row.tool_calls_dropped > 0 ? { toolCallsDropped: row.tool_calls_dropped } : {}),
  };
}

function toItem(row: ItemRow): HistoryItem {
  return {
    ...baseFields(row),
    codePreview: row.code_preview,
    toolCallCount: row.tool_calls,
    ...(row.snippet !== undefined ? { snippet: parseSnippet(row.snippet) } : {}),
  };
}

/** The listing's SQL for these filters; only the values vary between calls with the same filters. */
function listSql(query: HistoryQuery, rows: number): { sql: string; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  const fts = query.search !== undefined ? toFtsQuery(query.search) : null;
  let from = 'executions e';
  let columns = ITEM_COLUMNS;
  // Search pages follow the index's own order (recording order, which is queue order but for runs queued in
  // the same instant by two processes), so FTS5 stops after one page instead of sorting every match.
  let order = 'e.queued_at DESC, e.seq DESC';
  if (fts !== null) {
    from = 'executions_fts CROSS JOIN executions e ON e.seq = executions_fts.rowid';
    order = 'executions_fts.rowid DESC';
    columns += `, snippet(executions_fts, -1, '${HIT_OPEN}', '${HIT_CLOSE}', '${SNIPPET_ELLIPSIS}', ${SNIPPET_TOKENS}) AS snippet`;
    where.push('executions_fts MATCH ?');
    params.push(fts);
  }
  const filter = (clause: string, ...values: SqlValue[]) => {
    where.push(clause);
    params.push(...values);
  };
  const statuses = query.status === undefined ? [] : [query.status].flat();
  if (statuses.length > 0) filter(`e.status IN (${statuses.map(() => '?').join(', ')})`, ...statuses);
  if (query.client !== undefined) filter('e.client_name = ?', query.client);
  if (query.server !== undefined) filter('EXISTS (SELECT 1 FROM execution_servers s WHERE s.server = ? AND s.execution_seq = e.seq)', query.server);
  if (query.from !== undefined) filter('e.queued_at >= ?', query.from);
  if (query.to !== undefined) filter('e.queued_at < ?', query.to);
  if (query.cursor !== undefined) {
    const at = decodeCursor(query.cursor);
    if (fts !== null) filter('executions_fts.rowid < ?', at.seq);
    else filter('(e.queued_at, e.seq) < (?, ?)', at.queuedAt, at.seq);
  }
  params.push(rows);
  const sql = `SELECT ${columns} FROM ${from} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ?`;
  return { sql, params };
}

export class HistoryReader {
  private readonly detailStmt: SqlStatement;
  private readonly toolCallsStmt: SqlStatement;
  private readonly artifactsStmt: SqlStatement;
  private readonly artifactStmt: SqlStatement;
  private readonly approvalsStmt: SqlStatement;
  /** Listing SQL varies with the filters; a handful of shapes cover every screen, so each is prepared once. */
  private readonly listStmts = new Map<string, SqlStatement>();

  constructor(private readonly db: SqlDriver) {
    this.detailStmt = db.prepare('SELECT * FROM executions WHERE id = ?');
    this.toolCallsStmt = db.prepare(
      'SELECT server, tool, started_at, duration_ms, is_error, bytes_in, bytes_out, error FROM tool_calls WHERE execution_id = ? ORDER BY started_at, id',
    );
    const artifactColumns = 'name, mime_type, size, source, width, height, title';
    this.artifactsStmt = db.prepare(`SELECT ${artifactColumns} FROM artifacts WHERE execution_id = ? ORDER BY position, id`);
    this.artifactStmt = db.prepare(`SELECT ${artifactColumns}, data FROM artifacts WHERE execution_id = ? AND name = ?`);
    this.approvalsStmt = db.prepare(
      'SELECT approval_id, execution_id, server, tool, args_hash, decision, decided_by, decided_at FROM approvals WHERE execution_id = ? ORDER BY decided_at, id',
    );
  }

  list(query: HistoryQuery = {}): HistoryPage {
    const limit = Math.min(Math.max(Math.trunc(query.limit ?? DEFAULT_PAGE_SIZE), 1), MAX_PAGE_SIZE);
    const { sql, params } = listSql(query, limit + 1);
    const rows = this.statement(sql).all<ItemRow>(params);
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    return { items: page.map(toItem), nextCursor: more && last ? encodeCursor({ queuedAt: last.queued_at, seq: last.seq }) : null };
  }

  get(id: string): HistoryDetail | null {
    const row = this.detailStmt.get<DetailRow>([id]);
    if (!row) return null;
    const toolCalls: HistoryToolCall[] = this.toolCallsStmt.all<ToolCallRow>([id]).map((t) => ({
      server: t.server,
      tool: t.tool,
      startedAt: t.started_at,
      durationMs: t.duration_ms,
      isError: t.is_error !== 0,
      bytesIn: t.bytes_in,
      bytesOut: t.bytes_out,
      error: t.error,
    }));
    return {
      ...baseFields(row),
      code: row.code,
      limits: row.limits ? (JSON.parse(row.limits) as Limits) : null,
      timeoutSec: row.timeout_sec,
      stdout: row.stdout,
      stderr: row.stderr,
      stdoutTruncated: row.stdout_truncated !== 0,
      stderrTruncated: row.stderr_truncated !== 0,
      containerName: row.container_name,
      toolCallCount: toolCalls.length,
      toolCalls,
      artifacts: this.artifactsStmt.all<ArtifactRow>([id]).map(toArtifactMeta),
      refusedArtifacts: parseRefused(row.refused_artifacts),
      packages: parsePackages(row.packages),
      folders: parseFolders(row.folders ?? null),
      egress: parseEgress(row.egress ?? null),
      egressDropped: row.egress_dropped ?? 0,
      approvals: this.approvalsStmt.all<ApprovalRow>([id]).map(toApprovalOutcome),
    };
  }

  /** One artifact of one run with its bytes; null when the run or the name is not in the history. */
  artifact(runId: string, name: string): Artifact | null {
    const row = this.artifactStmt.get<ArtifactRow & { data: Uint8Array }>([runId, name]);
    if (!row) return null;
    // Either driver's bytes (a Buffer or a plain Uint8Array) as a plain view, so callers see one type.
    return { ...toArtifactMeta(row), data: new Uint8Array(row.data.buffer, row.data.byteOffset, row.data.byteLength) };
  }

  /** The values the panel's filters offer: every client and server that appears in the history. */
  facets(): { clients: string[]; servers: string[] } {
    // Both read an index only (executions_client, the execution_servers primary key).
    const clients = this.statement('SELECT DISTINCT client_name AS v FROM executions ORDER BY v').all<{ v: string }>();
    const servers = this.statement('SELECT DISTINCT server AS v FROM execution_servers ORDER BY v').all<{ v: string }>();
    return { clients: clients.map((r) => r.v), servers: servers.map((r) => r.v) };
  }

  /** Every status with its number of runs (zeros included), optionally only runs queued since `since`. */
  countByStatus(since?: number): StatusCounts {
    const counts = Object.fromEntries(HISTORY_STATUSES.map((s) => [s, 0])) as StatusCounts;
    const rows =
      since === undefined
        ? this.statement('SELECT status, count(*) AS n FROM executions GROUP BY status').all<{ status: string; n: number }>()
        : this.statement('SELECT status, count(*) AS n FROM executions WHERE queued_at >= ? GROUP BY status').all<{ status: string; n: number }>([since]);
    for (const { status, n } of rows) if (status in counts) counts[status as HistoryStatus] = n;
    return counts;
  }

  private statement(sql: string): SqlStatement {
    let stmt = this.listStmts.get(sql);
    if (!stmt) {
      // Status lists make the shapes combinatorial in theory; in practice a few are used, so a reset suffices.
      if (this.listStmts.size >= 64) this.listStmts.clear();
      stmt = this.db.prepare(sql);
      this.listStmts.set(sql, stmt);
    }
    return stmt;
  }
}
