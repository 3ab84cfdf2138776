// What the run use case needs from the rooms around it, as narrow ports: the user's MCP servers, package
// layers, session admission, the approval questions and the engine. The product wires the real services in
// (core.ts); the fake-backend suite wires the same ones over an in-process backend.
import type { PendingApproval } from '../../shared/approvals.js';
import type { ClientInfo, ExecutionResult } from '../../shared/execution.js';
import type { PackageFetch } from '../../shared/packages.js';
import type { SandboxMcpContext } from '../../shared/proxy.js';
import type { SessionResultInfo } from '../../shared/sessions.js';
import type { ApprovalChannel } from '../proxy/approval-broker.js';
import type { BackendFeatures } from '../sandbox/backend.js';
import type { Engine } from '../sandbox/engine.js';
import type { RpcHandler } from '../sandbox/run/execution.js';
import type { SessionCall, SessionCaller } from '../sessions/session-registry.js';

/** One run as every surface asks for it (MCP's arguments, the panel's Re-run, `sandbar run`'s flags). */
export interface RunRequest {
  code: string;
  servers?: readonly string[];
  /** Requirements to install first (`numpy==2.1`); the run sees its own layer. */
  packages?: readonly string[];
  /** Seconds; the engine clamps it to the maximum. */
  timeoutSec?: number;
  /** "new" to open a session, or the id of one this caller holds. */
  session?: string;
}

/** Who asks: what the history records, and the credential a session is bound to. */
export interface RunCaller {
  client: ClientInfo;
  /** `client-token:<fingerprint>` over HTTP, `stdio:<connection>` over stdio; sessions answer to it alone. */
  credential?: string;
}

/** Ask someone about one of this run's tool calls; null when that place cannot answer (the broker's channel). */
export type ApprovalAsk = ApprovalChannel;

export interface RunHooks {
  /** Cancels the run (the request went away, or the client said so). */
  signal?: AbortSignal;
  /** The caller itself as a place to ask about the run's tool calls (its MCP client's elicitation). */
  ask?: ApprovalAsk;
}

export interface RunResult {
  execution: ExecutionResult;
  /** A session call's session as it stands once the call ended (absent for a single-use run). */
  session?: SessionResultInfo & { ended?: string; note?: string };
}

export interface RunTicket {
  id: string;
  result: Promise<RunResult>;
  /** The session and the call's number in it, once admitted. */
  session?: { id: string; call: number };
}

/** The user's MCP servers as a run needs them (the ServerManager). */
export interface ServerCatalog {
  /** Why a run naming these servers is refused (unknown or denied), or null. */
  refusal(names: readonly string[]): string | null;
  /** Starts these servers if needed and describes them for the sandbox. */
  prepare(names: readonly string[]): Promise<SandboxMcpContext>;
  /** The host side of the sandbox's calls, limited to these servers. */
  rpcFor(names: readonly string[]): RpcHandler;
}

/** Installed package layers (the PackageManager bound to the current image). */
export interface PackageProvider {
  /** The layer's path inside the sandbox (null: the image has them all); throws with a reason. */
  prepare(requirements: readonly string[], signal?: AbortSignal): Promise<{ path: string | null; key: string | null; reused: boolean; fetches: PackageFetch[] }>;
}

/** Session admission (the SessionRegistry); absent where none can be kept (a one-shot command). */
export interface SessionAdmission {
  begin(caller: SessionCaller, requested: string): SessionCall;
  resultInfo(id: string): SessionResultInfo & { ended?: string; note?: string };
}

/** The questions waiting for a person (the ApprovalBroker's list). */
export interface ApprovalQueue {
  list(): readonly PendingApproval[];
}

/** What runs use of the engine: submit (only here, outside sandbox/), its refusal check, its events. */
export type RunEngine = Pick<Engine, 'submit' | 'refusal' | 'snapshot' | 'subscribe'> & { readonly backend: { readonly features: BackendFeatures } };

/** The engine's event stream as a surface follows a run (progress notifications). */
export type RunEvents = Pick<Engine, 'snapshot' | 'subscribe'>;
