// What the history store records and answers: the shapes the panel, the CLI and health read.
import type { ApprovalOutcome } from './approvals.js';
import type { ArtifactMeta, RefusedArtifact } from './artifacts.js';
import type { ExitReason } from './execution.js';
import type { EgressRecord } from './egress-audit.js';
import type { RunFolder } from './folders.js';
import type { PackagesUsed } from './packages.js';
import type { SessionRef } from './sessions.js';
import type { Limits } from './limits.js';

/** A finished run's status is its exit reason; the other three are runs not (or never) finished. */
export const HISTORY_STATUSES = ['queued', 'running', 'interrupted', 'success', 'error', 'timeout', 'memory', 'cancelled', 'output_limit', 'runtime_error', 'protocol_abuse'] as const;
export type HistoryStatus = (typeof HISTORY_STATUSES)[number];

export function isHistoryStatus(value: string): value is HistoryStatus {
  return (HISTORY_STATUSES as readonly string[]).includes(value);
}

export interface HistoryQuery {
  /** Rows per page; default 50, at most 500. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
  status?: HistoryStatus | HistoryStatus[];
  /** Exact client name (`claude-code`, `cli`, `panel`). */
  client?: string;
  /** Runs that loaded exactly this server. */
  server?: string;
  /** Inclusive lower and exclusive upper bound on the queue time, epoch ms. */
  from?: number;
  to?: number;
  /**
   * Full-text search over code, stdout and stderr of settled runs (runs in flight are indexed when they end);
   * see `toFtsQuery` for the syntax. Results come newest recorded first.
   */
  search?: string;
}

/** A highlighted snippet: `hit` parts are the words that matched. */
export interface SnippetPart {
  text: string;
  hit: boolean;
}

export interface HistoryItem {
  id: string;
  client: { name: string; version: string | null };
  transport: string | null;
  /** The first 300 characters of the code. */
  codePreview: string;
  servers: string[];
  status: HistoryStatus;
  exitReason: ExitReason | null;
  exitCode: number | null;
  queuedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  durationMs: number | null;
  error: string | null;
  toolCallCount: number;
  /** Tool calls past the per-run cap (1,000) that history counted but did not keep; absent when none. */
  toolCallsDropped?: number;
  /** Set for a call made in a session: History groups a session's calls by it. */
  session?: SessionRef;
  /** Only on search results. */
  snippet?: SnippetPart[];
}

export interface HistoryPage {
  items: HistoryItem[];
  /** Pass back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export interface HistoryToolCall {
  server: string;
  tool: string;
  startedAt: number;
  durationMs: number;
  isError: boolean;
  bytesIn: number;
  bytesOut: number;
  error: string | null;
}

export interface HistoryDetail extends Omit<HistoryItem, 'codePreview' | 'snippet'> {
  code: string;
  limits: Limits | null;
  timeoutSec: number | null;
  stdout: string;
  stderr: string;
  /** True when the engine cut the stream or history stored only its first HISTORY_STREAM_CAP_BYTES. */
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  containerName: string | null;
  toolCalls: HistoryToolCall[];
  /** The run's figures, displays and files, without their bytes (`executions.artifact` serves those). */
  artifacts: ArtifactMeta[];
  /** What the host would not keep, with the reasons the result stated. */
  refusedArtifacts: RefusedArtifact[];
  /** `packages` the run asked for: the layer and every fetch made for it; null for runs without. */
  packages: PackagesUsed | null;
  /** The user's folders the run's sandbox had (empty: none). */
  folders: RunFolder[];
  /** The run's connections through the egress proxy, oldest first (empty: none or egress off). */
  egress: EgressRecord[];
  /** Connections past MAX_EGRESS_RECORDS that were counted but not kept. */
  egressDropped: number;
  /** Every decision about the run's tool calls (answers, the deadline, policy refusals), oldest first. */
  approvals: ApprovalOutcome[];
}

export type StatusCounts = Record<HistoryStatus, number>;

export interface RetentionPolicy {
  /** Runs queued longer ago than this are deleted; 0 keeps them forever. */
  maxAgeDays: number;
  /** Newest runs are kept while their recorded sizes add up to at most this; 0 disables the limit. */
  maxBytes: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { maxAgeDays: 30, maxBytes: 500 * 1024 * 1024 };

export interface PruneResult {
  byAge: number;
  bySize: number;
}

export interface HistoryHealth {
  available: boolean;
  file: string;
  driver: string | null;
  /** Set when a damaged database was moved aside at start and a fresh one created. */
  recovered: { movedTo: string; reason: string } | null;
  /** Why the store is unavailable, or the last failed write. */
  error: string | null;
  /** Events that could not be recorded since start (logged; the engine carries on). */
  writeErrors: number;
}
