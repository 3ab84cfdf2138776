// The panel's control API: every method (zod-checked arguments, typed result) and every event, defined
// once. The router implements it, the IPC and HTTP/SSE transports carry it, the preload exposes it and the
// renderer's api client calls it; all of them derive their types from this file.
import { z } from 'zod';
import { APPROVAL_DECISIONS, type ApprovalOutcome, type PendingApproval } from './approvals.js';
import type { ArtifactMeta } from './artifacts.js';
import type { EngineEvent, ExecutionResult, ExecutionSummary, PoolState, ToolCallRecord } from './execution.js';
import type { ErrorCode } from './errors.js';
import type { EgressRecord } from './egress-audit.js';
import type { HealthReport, RuntimeTier } from './health.js';
import type { HistoryDetail, HistoryPage, HistoryStatus } from './history.js';
import type { ServerState, ToolInfo } from './proxy.js';
import type { SessionInfo } from './sessions.js';
import type { Settings } from './settings.js';
import { EVENT_NAMES, ipcChannel, METHOD_NAMES } from './contract-names.js';
import { hasControlChars } from './control-chars.js';
import { ImageReferenceSchema } from './image-ref.js';

export { EVENT_NAMES, ipcChannel, METHOD_NAMES };

/** A phantom marker: the result type of a method lives only in the type system. */
const returns = <T>() => undefined as unknown as T;

const id = z.object({ id: z.string().min(1, 'must name an execution') });
const name = z.object({ name: z.string().min(1, 'must name a server') });
const none = z.object({}).strict();
/** Which token: the client token (MCP clients) unless the panel token is named. */
const tokenKind = z.object({ kind: z.enum(['client', 'panel']).default('client') }).strict();

export const CLIENT_IDS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf'] as const;
export type ClientId = (typeof CLIENT_IDS)[number];
const clientChange = z.object({ id: z.enum(CLIENT_IDS), action: z.enum(['add', 'remove']) });

/** Text typed by a person: bounded, and without NUL or other control characters (tab and newline pass). */
const plainText = (max: number) =>
  z
    .string()
    .max(max, `is limited to ${max} characters`)
    .refine((v) => !hasControlChars(v), 'must not contain control characters');

export const HistoryQuerySchema = z
  .object({
    limit: z.number().int().min(1).max(500).optional(),
    cursor: z.string().optional(),
    status: z.array(z.string().max(32)).max(16, 'at most 16 statuses').optional(),
    client: plainText(200).optional(),
    server: plainText(200).optional(),
    from: z.number().optional(),
    to: z.number().optional(),
    search: plainText(500).optional(),
  })
  .strict();

// ---- result shapes -------------------------------------------------------------------------------

/**
 * A finished run without its output (the output streams separately, by subscription) and without its
 * artifacts' bytes: events carry their metadata, and `executions.artifact` serves the bytes on demand.
 */
export type FinishedExecution = Omit<ExecutionResult, 'stdout' | 'stderr' | 'artifacts'> & {
  code: string;
  servers: string[];
  client?: ExecutionSummary['client'];
  artifacts?: ArtifactMeta[];
};

/** One stored artifact's bytes, for the panel's thumbnails, larger view and save. */
export interface ArtifactBytes {
  name: string;
  mimeType: string;
  size: number;
  /** Base64: the same envelope carries it over IPC and HTTP. */
  data: string;
}

export interface RunningExecution extends ExecutionSummary {
  startedAt: number | null;
  containerName?: string;
  /** Memory in use, sampled about once a second while the run goes; null until the first sample. */
  memoryBytes: number | null;
}

export interface LiveSnapshot {
  running: RunningExecution[];
  queued: ExecutionSummary[];
  /** The last finished runs, newest first (at most 20). */
  recent: FinishedExecution[];
  pool: PoolState;
  /** New runs are refused while paused (tray or panel). */
  paused: boolean;
  memoryLimitBytes: number;
}

export interface OutputBuffer {
  id: string;
  /** What was captured so far (the live tail, at most 256 KiB per stream). */
  stdout: string;
  stderr: string;
  /** True when the live tail dropped its beginning. */
  clipped: boolean;
}

export interface SettingsView {
  settings: Settings;
  defaults: Settings;
  /** Fields set by an environment variable or a command-line flag: shown, but not editable here. */
  locked: { path: string; source: string }[];
  file: string;
}

export interface SettingsChange {
  settings: Settings;
  /** Dotted paths whose values changed (`limits.memory`, `httpPort`). */
  changed: string[];
}

export interface ServerView {
  name: string;
  source: string;
  transport: 'stdio' | 'http';
  description: string;
  policy: 'allow' | 'deny';
  state: ServerState;
  toolCount: number | null;
  lastError: string | null;
}

export interface ClientView {
  id: ClientId;
  label: string;
  file: string;
  exists: boolean;
  /** The client's config folder exists (or its config file does). */
  installed: boolean;
  /** 'stale': there is a `sandbar` entry, but with another url, token or command than Sandbar would write now. */
  configured: 'no' | 'yes' | 'stale';
  transport: 'http' | 'stdio';
  /** Why the file could not be read or parsed; `configured` is then 'no'. */
  error: string | null;
}

/** One hunk of a change, as `diff`'s structuredPatch gives it: each line keeps its ' ', '+', '-' or '\\' mark. */
export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

export interface ClientChangePreview {
  id: ClientId;
  action: 'add' | 'remove';
  file: string;
  /** The change's hunks with the tokens masked; none when nothing would change. */
  diff: DiffHunk[];
  changed: boolean;
  /** Set when writing changes the file's permissions (`0644` → `0600`: it will hold the client token). */
  modeChange: { from: string; to: string } | null;
  /** What the client will do with the entry, in one sentence: the command and SANDBAR_HOME it starts, or the URL. */
  summary: string;
}

export interface ClientChangeResult extends ClientChangePreview {
  /** The copy of the file as it was; null when the file did not exist or nothing was written. */
  backup: string | null;
}

export interface EndpointInfo {
  /** The MCP endpoint (`http://127.0.0.1:PORT/mcp`); null when the listener is down. */
  url: string | null;
  port: number;
  listening: boolean;
  /** Why it is not listening (port in use, for example). */
  error: string | null;
  /** The client token's file: what MCP clients send to /mcp (it opens nothing else). */
  tokenFile: string;
  /** The panel token's file: what opens the control API and the panel (never given to MCP clients). */
  panelTokenFile: string;
  sessions: number;
}

export const TOKEN_KINDS = ['client', 'panel'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

export interface ImagePullProgress {
  image: string;
  phase: 'pulling' | 'done' | 'failed';
  /** The runtime's last progress line. */
  line: string;
  /** 0..1 when the runtime reports sizes, else null. */
  fraction: number | null;
  error: string | null;
}

export interface HistoryFacets {
  clients: string[];
  servers: string[];
  statuses: HistoryStatus[];
}

// ---- methods -------------------------------------------------------------------------------------

export const methods = {
  'executions.list': { args: HistoryQuerySchema, result: returns<HistoryPage>() },
  'executions.get': { args: id, result: returns<HistoryDetail | null>() },
  'executions.facets': { args: none, result: returns<HistoryFacets>() },
  /** One figure, display or file of a run in the history, with its bytes. */
  'executions.artifact': {
    args: z
      .object({
        runId: z.string().min(1, 'must name an execution').max(200),
        name: z.string().min(1, 'must name an artifact').max(1024),
      })
      .strict(),
    result: returns<ArtifactBytes>(),
  },
  'executions.cancel': { args: id, result: returns<{ cancelled: boolean }>() },
  'executions.rerun': { args: id, result: returns<{ id: string }>() },
  'live.snapshot': { args: none, result: returns<LiveSnapshot>() },
  'live.setPaused': { args: z.object({ paused: z.boolean() }).strict(), result: returns<{ paused: boolean }>() },
  'output.subscribe': { args: id, result: returns<OutputBuffer | null>() },
  'output.unsubscribe': { args: id, result: returns<{ ok: true }>() },
  'settings.get': { args: none, result: returns<SettingsView>() },
  /** A partial settings object (nested objects are merged); refused field by field when invalid. */
  'settings.update': { args: z.object({ patch: z.record(z.string(), z.unknown()) }).strict(), result: returns<SettingsChange>() },
  /** The container command line these limits would produce (for the Limits view); invalid limits are refused by field. */
  'settings.previewFlags': { args: z.object({ limits: z.record(z.string(), z.unknown()) }).strict(), result: returns<{ argv: string[] }>() },
  /** The desktop's folder picker (IPC only): the chosen folder, or null when the person cancelled. */
  'folders.pick': { args: none, result: returns<{ path: string | null }>() },
  'health.get': { args: none, result: returns<HealthReport | null>() },
  'health.probe': { args: none, result: returns<HealthReport>() },
  /** Probes every runtime and isolation tier installed here (podman, docker, gVisor), whichever is in use. */
  'health.tiers': { args: none, result: returns<RuntimeTier[]>() },
  'image.pull': { args: z.object({ image: ImageReferenceSchema.optional() }).strict(), result: returns<{ started: boolean; image: string }>() },
  'servers.list': { args: none, result: returns<ServerView[]>() },
  'servers.tools': { args: name, result: returns<ToolInfo[]>() },
  'servers.allow': { args: name, result: returns<ServerView[]>() },
  'servers.deny': { args: name, result: returns<ServerView[]>() },
  'servers.restart': { args: name, result: returns<ServerView[]>() },
  'clients.detect': { args: none, result: returns<ClientView[]>() },
  'clients.preview': { args: clientChange, result: returns<ClientChangePreview>() },
  'clients.configure': { args: clientChange, result: returns<ClientChangeResult>() },
  'endpoint.info': { args: none, result: returns<EndpointInfo>() },
  'endpoint.token': { args: tokenKind, result: returns<{ token: string }>() },
  'endpoint.rotateToken': { args: tokenKind, result: returns<{ token: string }>() },
  /** Tool calls from code waiting for a person's answer. */
  'approvals.list': { args: none, result: returns<PendingApproval[]>() },
  /** Answers one; `decided` is false when it was already answered or expired. */
  'approvals.decide': {
    args: z
      .object({ id: z.string().regex(/^[0-9a-f]{12}$/, 'must be an approval id'), decision: z.enum(APPROVAL_DECISIONS), via: z.enum(['panel', 'cli', 'tray']).default('panel') })
      .strict(),
    result: returns<{ decided: boolean }>(),
  },
  /** Live sessions, most recently used first. */
  'sessions.list': { args: none, result: returns<SessionInfo[]>() },
  /** Ends one now (its container is removed); `closed` is false when it had already ended. */
  'sessions.close': {
    args: z.object({ id: z.string().regex(/^[0-9a-f]{32}$/, 'must be a session id') }).strict(),
    result: returns<{ closed: boolean }>(),
  },
} as const;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type MethodArgs<M extends MethodName> = z.input<Methods[M]['args']>;
export type MethodResult<M extends MethodName> = Methods[M]['result'];

export function isMethodName(value: string): value is MethodName {
  return Object.hasOwn(methods, value);
}

// ---- events --------------------------------------------------------------------------------------

export interface Events {
  'execution.queued': Extract<EngineEvent, { type: 'queued' }>;
  'execution.started': Extract<EngineEvent, { type: 'started' }>;
  'execution.finished': { result: FinishedExecution };
  'execution.toolCall': { call: ToolCallRecord };
  /** Memory samples of the running executions. */
  'execution.stats': { samples: { id: string; memoryBytes: number }[] };
  /** Output of subscribed executions, batched about every 50 ms; chunks arrive in order. */
  'output.chunk': { id: string; stdout: string; stderr: string };
  'live.changed': { paused: boolean; pool: PoolState; running: number; queued: number };
  'health.changed': HealthReport;
  'settings.changed': SettingsChange;
  'server.state': { servers: ServerView[] };
  'image.pullProgress': ImagePullProgress;
  'endpoint.changed': EndpointInfo;
  /** The questions waiting now, after any was asked or answered; `last` says how the latest one ended. */
  'approvals.changed': { pending: PendingApproval[]; last?: ApprovalOutcome };
  /** Every live session, after any opens, call, pause or end. */
  'sessions.changed': { sessions: SessionInfo[] };
  /** One connection of a running execution through the egress proxy, as it is decided and as it ends. */
  'execution.egress': { id: string; record: EgressRecord };
}

export type EventName = keyof Events;
// The names live in contract-names.ts (zod-free, for the preload); these fail to compile if they drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const methodNamesMatch: Same<(typeof METHOD_NAMES)[number], MethodName> = true;
const eventNamesMatch: Same<(typeof EVENT_NAMES)[number], EventName> = true;
void methodNamesMatch;
void eventNamesMatch;

export interface EventMessage<E extends EventName = EventName> {
  event: E;
  /** Increases by one per message on a connection: a gap means something was dropped. */
  seq: number;
  data: Events[E];
}

// ---- the wire ------------------------------------------------------------------------------------

export interface ApiError {
  code: ErrorCode;
  message: string;
  /** Field-level messages keyed by dotted path (`limits.memory`), for settings and argument errors. */
  fields?: Record<string, string>;
}

/** Every call over every transport answers with this envelope. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** What the renderer sees: `window.sandbar` in Electron, the HTTP client in a browser. */
export interface SandbarApi {
  call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>>;
  on<E extends EventName>(event: E, listener: (data: Events[E]) => void): () => void;
}

/** The preload's surface: one function per method, one subscriber per event, nothing else. */
export type PreloadApi = {
  methods: { [M in MethodName]: (args: MethodArgs<M>) => Promise<Envelope<MethodResult<M>>> };
  events: { [E in EventName]: (listener: (data: Events[E]) => void) => () => void };
};


/** HTTP paths of the same API under `sandbar serve`. */
export const httpApi = {
  call: (method: MethodName) => `/api/call/${method}`,
  events: '/api/events',
  /** Sent with calls so per-connection state (output subscriptions) binds to the SSE stream. */
  connectionHeader: 'x-sandbar-connection',
} as const;
