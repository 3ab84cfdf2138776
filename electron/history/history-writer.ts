// Records the engine's event stream: a row when a run is queued (so a crash never loses it), updated when
// it starts and when it finishes, plus one row per proxied tool call. Methods throw; the store catches.
import type { ApprovalOutcome } from '../../shared/approvals.js';
import type { Artifact } from '../../shared/artifacts.js';
import type { EngineEvent, ExecutionResult, ExecutionSummary, ToolCallRecord } from '../../shared/execution.js';
import type { Limits } from '../../shared/limits.js';
import { truncateUtf8 } from '../sandbox/run/output-capture.js';
import type { SqlDriver, SqlStatement } from './sqlite-driver.js';

/**
 * History keeps at most this much of each stream (the engine already stops a run at its own cap, 1 MiB by
 * default); a cut here is OR'ed into the stream's truncated flag.
 */
export const HISTORY_STREAM_CAP_BYTES = 256 * 1024;
/** Fixed per-row and per-tool-call costs in the size that retention adds up (texts are counted on top). */
export const ROW_OVERHEAD_BYTES = 256;
export const TOOL_CALL_BYTES = 96;
/** A run's tool calls kept in history; later ones are only counted (tool_calls_dropped), so a loop of calls cannot grow it without bound. */
export const MAX_TOOL_CALLS_PER_RUN = 1000;
/** A tool call's error text is kept up to this much. */
export const TOOL_CALL_ERROR_CAP_BYTES = 4096;
/** Fixed cost of one recorded approval decision, on top of its texts (server, tool, ids). */
export const APPROVAL_BYTES = 160;
/** Fixed per-artifact cost on top of its bytes. */
export const ARTIFACT_OVERHEAD_BYTES = 128;

/** Which process wrote a row, so a later start can tell a dead writer's runs from a live one's. */
export interface WriterIdentity {
  host: string;
  pid: number;
}

export interface HistoryWriterOptions {
  identity: WriterIdentity;
  /** The limits in force when a run is queued (the engine snapshots the same); the finish row has the run's own. */
  currentLimits?: () => Limits | undefined;
}

const bytes = (s: string | null | undefined) => (s ? Buffer.byteLength(s) : 0);

function capStream(text: string): { text: string; cut: boolean } {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short strings skip the byte count altogether.
  if (text.length * 3 <= HISTORY_STREAM_CAP_BYTES) return { text, cut: false };
  const kept = truncateUtf8(text, HISTORY_STREAM_CAP_BYTES);
  return { text: kept, cut: kept.length < text.length };
}

export class HistoryWriter {
  private readonly insertQueued: SqlStatement;
  private readonly insertServer: SqlStatement;
  private readonly markStarted: SqlStatement;
  private readonly upsertFinished: SqlStatement;
  private readonly insertToolCall: SqlStatement;
  private readonly addSize: SqlStatement;
  private readonly countDropped: SqlStatement;
  private readonly insertArtifact: SqlStatement;
  private readonly insertApproval: SqlStatement;

  /** Built by the store once the database is open and migrated; statements are prepared once here. */
  constructor(
    private readonly db: SqlDriver,
    private readonly options: HistoryWriterOptions,
  ) {
    this.insertQueued = db.prepare(`INSERT INTO executions
      (id, client_name, client_version, transport, code, servers, limits, timeout_sec, status, queued_at, owner_host, owner_pid, size_bytes, packages, session_id, session_call)
      VALUES (@id, @clientName, @clientVersion, @transport, @code, @servers, @limits, @timeoutSec, 'queued', @queuedAt, @host, @pid, @size, @packages, @sessionId, @sessionCall)
      ON CONFLICT (id) DO NOTHING`);
    this.insertServer = db.prepare('INSERT OR IGNORE INTO execution_servers (server, execution_seq) VALUES (?, ?)');
    this.markStarted = db.prepare(`UPDATE executions SET status = 'running', started_at = ?, container_name = ? WHERE id = ? AND status = 'queued'`);
    this.upsertFinished = db.prepare(`INSERT INTO executions
      (id, client_name, code, limits, timeout_sec, status, exit_reason, exit_code, queued_at, started_at, finished_at, duration_ms,
       stdout, stderr, stdout_truncated, stderr_truncated, error, container_name, owner_host, owner_pid, size_bytes, refused_artifacts, folders, egress, egress_dropped)
      VALUES (@id, 'unknown', '', @limits, @timeoutSec, @status, @status, @exitCode, @queuedAt, @startedAt, @finishedAt, @durationMs,
       @stdout, @stderr, @stdoutTruncated, @stderrTruncated, @error, @containerName, @host, @pid, @size + ${ROW_OVERHEAD_BYTES}, @refused, @folders, @egress, @egressDropped)
      ON CONFLICT (id) DO UPDATE SET
        limits = excluded.limits, timeout_sec = excluded.timeout_sec, status = excluded.status, exit_reason = excluded.exit_reason,
        exit_code = excluded.exit_code, started_at = coalesce(excluded.started_at, executions.started_at),
        finished_at = excluded.finished_at, duration_ms = excluded.duration_ms, stdout = excluded.stdout, stderr = excluded.stderr,
        stdout_truncated = excluded.stdout_truncated, stderr_truncated = excluded.stderr_truncated, error = excluded.error,
        container_name = coalesce(excluded.container_name, executions.container_name), size_bytes = executions.size_bytes + @size,
        refused_artifacts = excluded.refused_artifacts, folders = excluded.folders, egress = excluded.egress,
        egress_dropped = excluded.egress_dropped
      WHERE executions.status IN ('queued', 'running', 'interrupted')`);
    // A call whose run has no row (recorded before this store started) would never be cleaned up: skip it.
    this.insertToolCall = db.prepare(`INSERT INTO tool_calls
      (execution_id, server, tool, started_at, duration_ms, is_error, bytes_in, bytes_out, error)
      SELECT @id, @server, @tool, @startedAt, @durationMs, @isError, @bytesIn, @bytesOut, @error
      WHERE EXISTS (SELECT 1 FROM executions WHERE id = @id)
        AND (SELECT count(*) FROM tool_calls WHERE execution_id = @id) < ${MAX_TOOL_CALLS_PER_RUN}`);
    this.countDropped = db.prepare('UPDATE executions SET tool_calls_dropped = tool_calls_dropped + 1 WHERE id = ?');
    this.addSize = db.prepare('UPDATE executions SET size_bytes = size_bytes + ? WHERE id = ?');
    // A name the run already stored (a finish recorded twice) keeps its first bytes.
    this.insertArtifact = db.prepare(`INSERT OR IGNORE INTO artifacts
      (execution_id, position, name, mime_type, size, source, width, height, title, data)
      VALUES (@id, @position, @name, @mimeType, @size, @source, @width, @height, @title, @data)`);
    // Like a tool call: a decision about a run this store never saw would never be cleaned up.
    this.insertApproval = db.prepare(`INSERT OR IGNORE INTO approvals
      (execution_id, approval_id, server, tool, args_hash, decision, decided_by, decided_at)
      SELECT @runId, @id, @server, @tool, @argsHash, @decision, @by, @at
      WHERE EXISTS (SELECT 1 FROM executions WHERE id = @runId)`);
  }

  /** `limits`: those in force when the event happened, when it is recorded later (history-store.ts batches). */
  handle(event: EngineEvent, limits?: Limits): void {
    switch (event.type) {
      case 'queued':
        return this.queued(event.execution, limits);
      case 'started':
        this.markStarted.run([event.at, event.containerName, event.id]);
        return;
      case 'toolCall':
        return this.toolCall(event.call);
      case 'finished':
        return this.finished(event.result);
      case 'approvalResolved':
        return this.approval(event.outcome);
      case 'output':
      case 'egress':
      case 'serverStateChanged':
      case 'poolChanged':
      case 'pausedChanged':
      case 'approvalRequested':
        // Output and egress records are taken whole from the finished result; server, pool and pause states are not history;
        // a question is recorded once it is decided.
        return;
    }
  }

  queued(execution: ExecutionSummary, limitsAtQueue?: Limits): void {
    const servers = JSON.stringify(execution.servers);
    const limits = limitsAtQueue ?? this.options.currentLimits?.();
    const limitsJson = limits ? JSON.stringify(limits) : null;
    const packages = execution.packages ? JSON.stringify(execution.packages) : null;
    const row = {
      id: execution.id,
      clientName: execution.client?.name ?? 'unknown',
      clientVersion: execution.client?.version ?? null,
      transport: execution.client?.transport ?? null,
      code: execution.code,
      servers,
      limits: limitsJson,
      timeoutSec: execution.timeoutSec,
      queuedAt: execution.queuedAt,
      host: this.options.identity.host,
      pid: this.options.identity.pid,
      size: ROW_OVERHEAD_BYTES + bytes(execution.code) + bytes(servers) + bytes(limitsJson) + bytes(packages),
      packages,
      sessionId: execution.session?.id ?? null,
      sessionCall: execution.session?.call ?? null,
    };
    if (execution.servers.length === 0) {
      this.insertQueued.run(row);
      return;
    }
    this.db.transaction(() => {
      const { changes, lastInsertRowid } = this.insertQueued.run(row);
      if (changes === 0) return;
      for (const server of new Set(execution.servers)) this.insertServer.run([server, lastInsertRowid]);
    });
  }

  finished(result: ExecutionResult): void {
    const stdout = capStream(result.stdout);
    const stderr = capStream(result.stderr);
    const error = result.message ?? null;
    const artifacts = result.artifacts ?? [];
    const refused = result.refusedArtifacts?.length ? JSON.stringify(result.refusedArtifacts) : null;
    if (artifacts.length === 0) {
      this.upsertFinished.run(this.finishedRow(result, stdout, stderr, error, refused, 0));
      return;
    }
    // The row and its artifacts land together; a finish that updated nothing (already settled) adds none.
    this.db.transaction(() => {
      const artifactBytes = artifacts.reduce((n, a) => n + artifactCost(a), 0);
      const { changes } = this.upsertFinished.run(this.finishedRow(result, stdout, stderr, error, refused, artifactBytes));
      if (changes === 0) return;
      artifacts.forEach((a, position) => this.insertArtifact.run(artifactRow(result.id, position, a)));
    });
  }

  private finishedRow(
    result: ExecutionResult,
    stdout: { text: string; cut: boolean },
    stderr: { text: string; cut: boolean },
    error: string | null,
    refused: string | null,
    artifactBytes: number,
  ) {
    const folders = result.folders?.length ? JSON.stringify(result.folders) : null;
    // The run's connections (at most MAX_EGRESS_RECORDS; the rest counted): null when egress was off.
    const egress = result.egress ? JSON.stringify(result.egress) : null;
    return {
      id: result.id,
      limits: JSON.stringify(result.limits),
      timeoutSec: result.timeoutSec,
      status: result.exitReason,
      exitCode: result.exitCode,
      queuedAt: result.queuedAt,
      startedAt: result.startedAt,
      finishedAt: result.finishedAt,
      durationMs: result.durationMs,
      stdout: stdout.text,
      stderr: stderr.text,
      stdoutTruncated: result.stdoutTruncated || stdout.cut ? 1 : 0,
      stderrTruncated: result.stderrTruncated || stderr.cut ? 1 : 0,
      error,
      containerName: result.containerName ?? null,
      host: this.options.identity.host,
      pid: this.options.identity.pid,
      size: bytes(stdout.text) + bytes(stderr.text) + bytes(error) + bytes(refused) + bytes(folders) + bytes(egress) + artifactBytes,
      refused,
      folders,
      egress,
      egressDropped: result.egressDropped ?? 0,
    };
  }

  toolCall(call: ToolCallRecord): void {
    const error = call.error ? truncateUtf8(call.error, TOOL_CALL_ERROR_CAP_BYTES) : null;
    this.db.transaction(() => {
      const { changes } = this.insertToolCall.run({
        id: call.executionId,
        server: call.server,
        tool: call.tool,
        startedAt: call.startedAt,
        durationMs: call.durationMs,
        isError: call.isError ? 1 : 0,
        bytesIn: call.bytesIn,
        bytesOut: call.bytesOut,
        error,
      });
      // What is stored counts: the names and the error text, not only a fixed cost per call.
      if (changes > 0) this.addSize.run([TOOL_CALL_BYTES + bytes(call.server) + bytes(call.tool) + bytes(error), call.executionId]);
      else this.countDropped.run([call.executionId]);
    });
  }

  approval(outcome: ApprovalOutcome): void {
    this.db.transaction(() => {
      const { changes } = this.insertApproval.run(approvalRow(outcome));
      if (changes > 0) this.addSize.run([approvalCost(outcome), outcome.runId]);
    });
  }
}

export function approvalCost(o: ApprovalOutcome): number {
  return APPROVAL_BYTES + bytes(o.id) + bytes(o.server) + bytes(o.tool) + bytes(o.argsHash) + bytes(o.decision) + bytes(o.by);
}

function approvalRow(o: ApprovalOutcome) {
  return { runId: o.runId, id: o.id, server: o.server, tool: o.tool, argsHash: o.argsHash, decision: o.decision, by: o.by, at: o.at };
}

function artifactCost(a: Artifact): number {
  return ARTIFACT_OVERHEAD_BYTES + a.data.byteLength + bytes(a.name) + bytes(a.title);
}

function artifactRow(id: string, position: number, a: Artifact) {
  return {
    id,
    position,
    name: a.name,
    mimeType: a.mimeType,
    size: a.data.byteLength,
    source: a.source,
    width: a.width ?? null,
    height: a.height ?? null,
    title: a.title ?? null,
    data: a.data,
  };
}
