// What one execution is, how it ends, and the engine's event stream: the vocabulary of every surface.
import type { Artifact, RefusedArtifact } from './artifacts.js';
import type { ApprovalOutcome, PendingApproval } from './approvals.js';
import type { EgressRecord } from './egress-audit.js';
import type { RunFolder } from './folders.js';
import type { Limits } from './limits.js';
import type { PackagesUsed } from './packages.js';
import type { SessionRef } from './sessions.js';

export const EXIT_REASONS = [
  'success',
  'error',
  'timeout',
  'memory',
  'cancelled',
  'output_limit',
  'runtime_error',
  /** The code went around the sandbox's agent and broke the frame protocol's bounds: the run was stopped. */
  'protocol_abuse',
] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

export type Stream = 'stdout' | 'stderr';

/** Who asked for the run: an MCP client's clientInfo, or `cli` / `panel`. */
export interface ClientInfo {
  name: string;
  version?: string;
  transport?: 'stdio' | 'http' | 'cli' | 'panel';
}

export interface ExecutionRequest {
  code: string;
  /** Seconds; clamped to [1, limits.maxTimeoutSec]. Defaults to limits.timeoutSec. */
  timeoutSec?: number;
  servers?: string[];
  client?: ClientInfo;
  /** The packages prepared for this run (recorded in history; the layer's path travels in `context`). */
  packages?: PackagesUsed;
  /** Opaque per-run data handed to the agent in the `start` frame (server metadata, later). */
  context?: Record<string, unknown>;
  /** A call in a session: its id and the call's number (recorded in history). */
  session?: SessionRef;
}

export interface ExecutionResult {
  id: string;
  exitReason: ExitReason;
  /** The process exit code when there was one (137 for a memory kill); null when it never ran. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /**
   * When a stream was cut at the output cap: the bytes the code printed on it in all (the sandbox counts
   * them; at least what was kept). Absent when nothing was cut.
   */
  stdoutPrinted?: number;
  stderrPrinted?: number;
  /** A user-facing sentence for anything but success ("Execution timed out after 5s"). */
  message?: string;
  timeoutSec: number;
  limits: Limits;
  queuedAt: number;
  startedAt: number | null;
  finishedAt: number;
  /** From code hand-over to the end (what the timeout measures); 0 when it never started. */
  durationMs: number;
  containerName?: string;
  /** Figures, displays and /workspace/out files, in the order the code made them (files last). */
  artifacts?: Artifact[];
  /** What the host would not keep (bad header, too large, over a cap), each with its reason. */
  refusedArtifacts?: RefusedArtifact[];
  /** The user's folders the run's sandbox had (absent: none). */
  folders?: RunFolder[];
  /** The run's connections through the egress proxy, oldest first (absent: egress was off). */
  egress?: EgressRecord[];
  /** Connections past MAX_EGRESS_RECORDS that were counted but not kept (absent: none). */
  egressDropped?: number;
}

export interface ExecutionSummary {
  id: string;
  code: string;
  servers: string[];
  client?: ClientInfo;
  timeoutSec: number;
  queuedAt: number;
  packages?: PackagesUsed;
  session?: SessionRef;
}

/** One proxied call from a sandbox to one of the user's MCP servers. */
export interface ToolCallRecord {
  executionId: string;
  server: string;
  tool: string;
  startedAt: number;
  durationMs: number;
  bytesIn: number;
  bytesOut: number;
  isError: boolean;
  /** Set when the call failed in transport (the server was unreachable, timed out, crashed). */
  error?: string;
}

/** The warm pool: containers kept booted (`ready`) or booting (`starting`) towards `size`. */
export interface PoolState {
  /** How many the pool keeps ready now (its target: grows with load between `min` and `max`). */
  size: number;
  ready: number;
  starting: number;
  lastError: string | null;
  /** A spec change (limits, image, runtime) drained the pool and it is not full again yet. */
  refilling: boolean;
  /** Of `ready`, those still importing the preloads (a run taking one waits at most for the current module). */
  preloading?: number;
  /** The bounds it grows and shrinks between (settings poolSize and poolMax); absent on a fixed pool. */
  min?: number;
  max?: number;
  /** Calls waiting for the next container to come ready. */
  waiting?: number;
  /** Containers made ready in the last minute. */
  refillsPerMin?: number;
}

export type EngineEvent =
  | { type: 'queued'; execution: ExecutionSummary; position: number }
  | { type: 'toolCall'; call: ToolCallRecord }
  | { type: 'serverStateChanged'; server: string; state: 'stopped' | 'starting' | 'ready' | 'crashed'; error: string | null }
  | { type: 'started'; id: string; at: number; containerName: string; warm: boolean }
  | { type: 'output'; id: string; stream: Stream; data: string }
  /** One connection of a running execution through the egress proxy, once it is decided or ended. */
  | { type: 'egress'; id: string; record: EgressRecord }
  | { type: 'finished'; result: ExecutionResult }
  | { type: 'poolChanged'; pool: PoolState }
  | { type: 'pausedChanged'; paused: boolean }
  /** A tool call from code waits for a person's answer (approvals). */
  | { type: 'approvalRequested'; approval: PendingApproval }
  | { type: 'approvalResolved'; outcome: ApprovalOutcome };
