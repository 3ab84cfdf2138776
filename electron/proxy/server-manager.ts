// Owns one supervised connection per discovered server (never per request), decides which servers a
// sandbox may see (policy), prepares a run's servers, and answers the sandbox's host calls for exactly
// the servers that run loaded and the tools they list: forged frames gain nothing beyond that allow-list,
// and a name the server does not list is refused before anyone is asked, never recorded or shown.
import { jsonBytes } from './json-bytes.js';
import { AppError } from '../../shared/errors.js';
import { displayLine, DISPLAY_LIMITS } from '../../shared/display-text.js';
import { isToolName, TOOL_NAME_RULE } from '../../shared/tool-names.js';
import { codeLineCallsTool } from './code-line-check.js';
import type { DiscoveryResult, SandboxMcpContext, ServerConfig, ServerState, ToolInfo } from '../../shared/proxy.js';
import type { EngineEvent } from '../../shared/execution.js';
import { ToolCallDeniedError, type RpcHandler } from '../sandbox/run/execution.js';
import type { ToolPolicy } from '../../shared/approvals.js';
import type { ApprovalBroker, ApprovalChannel } from './approval-broker.js';
import { ServerConnection } from './server-connection.js';

export type ServerPolicy = 'allow' | 'deny';

export interface ServerManagerOptions {
  startTimeoutMs: number;
  /** Upper bound for one proxied call; it is also cut to what is left of the run's timeout. */
  callTimeoutMs: number;
  version: string;
  policy: (name: string) => ServerPolicy;
  publish: (event: Extract<EngineEvent, { type: 'toolCall' | 'serverStateChanged' }>) => void;
  /** Per-tool policy and the questions it asks; absent: every call of an allowed server goes through. */
  approvals?: {
    policy(server: string, tool: string, annotations: ToolInfo['annotations']): ToolPolicy;
    broker: ApprovalBroker;
    /** Extra places to ask for this run (its MCP client, if it can answer elicitations). */
    channels(runId: string): ApprovalChannel[];
    timeoutSec(): number;
    /** A one-shot command has no panel to ask: `ask` is a refusal at once, saying how to allow it. */
    nobodyToAsk?: boolean;
  };
}

export interface ServerStatus {
  name: string;
  source: string;
  transport: 'stdio' | 'http';
  description: string;
  policy: ServerPolicy;
  state: ServerState;
  toolCount: number | null;
  lastError: string | null;
}

/** Sandbox code can catch and read these; their text is the reference's (a name from the sandbox is shown sanitised). */
const notAvailable = (name: unknown) => new Error(`Server '${displayLine(String(name), DISPLAY_LIMITS.name)}' is not available`);

/** What history records for a call refused for its tool name: the name itself is not kept. */
export const UNLISTED_TOOL = '(unlisted tool)';
const RELIST_MS = 10_000;

export class ServerManager {
  private discovery: DiscoveryResult = { servers: [], problems: [], skipped: [] };
  private readonly connections = new Map<string, ServerConnection>();
  /** When each connection was last listed again for a missing tool name. */
  private readonly relisted = new WeakMap<ServerConnection, number>();

  constructor(private readonly options: ServerManagerOptions) {}

  /** New discovery results: connections whose config changed or vanished are stopped. */
  setDiscovery(result: DiscoveryResult): void {
    this.discovery = result;
    for (const [name, connection] of this.connections) {
      const now = result.servers.find((s) => s.name === name);
      if (!now || JSON.stringify(now) !== JSON.stringify(connection.config)) {
        this.connections.delete(name);
        void connection.stop();
      }
    }
  }

  /** Servers the sandbox may know about: discovered and not denied. */
  visible(): ServerConfig[] {
    return this.discovery.servers.filter((s) => this.options.policy(s.name) === 'allow');
  }

  unknown(names: readonly string[]): string[] {
    const known = new Set(this.visible().map((s) => s.name));
    return names.filter((n) => !known.has(n));
  }

  /**
   * Why a run naming these servers cannot go ahead, or null. A denied server gets its own sentence so
   * the user knows where to allow it; anything else is unknown (the reference's wording).
   */
  refusal(names: readonly string[]): string | null {
    const missing = this.unknown(names)[0];
    if (missing === undefined) return null;
    if (this.discovery.servers.some((s) => s.name === missing)) {
      return `MCP server '${missing}' is denied in Sandbar; allow it in the panel's Servers view to use it`;
    }
    // The name is the agent's: the result and history show it sanitised and bounded.
    return `Unknown MCP server: ${displayLine(missing, DISPLAY_LIMITS.name)}`;
  }

  status(): ServerStatus[] {
    return this.discovery.servers.map((s) => {
      const c = this.connections.get(s.name);
      return {
        name: s.name,
        source: s.source,
        transport: s.transport,
        description: s.description,
        policy: this.options.policy(s.name),
        state: c?.state ?? 'stopped',
        toolCount: c?.toolCount ?? null,
        lastError: c?.lastError ?? null,
      };
    });
  }

  /** Starts the run's servers (concurrently) and gathers what the sandbox is told about them. */
  async prepare(names: readonly string[]): Promise<SandboxMcpContext> {
    const loaded = await Promise.all(
      names.map(async (name) => {
        const connection = this.connection(name);
        const tools = await connection.cachedTools();
        return { name, description: connection.config.description, cwd: connection.config.cwd ?? null, tools };
      }),
    );
    return { loaded, discovered: this.visible().map((s) => ({ name: s.name, description: s.description })) };
  }

  /** The host side of the sandbox's RPC channel for one run. */
  rpcFor(names: readonly string[]): RpcHandler {
    const allowed = new Set(names);
    const reachable = (server: unknown): ServerConnection => {
      if (typeof server !== 'string' || !allowed.has(server) || this.unknown([server]).length) throw notAvailable(server);
      return this.connection(server);
    };
    // Calls this run made for tools their server does not list (or with names MCP does not allow).
    let unlisted = 0;
    const refuseTool = (connection: ServerConnection, why: string, ctx: Parameters<RpcHandler>[1]): never => {
      if (unlisted++ === 0) {
        // The first one is recorded, without its name; the sandbox's error counts the rest.
        this.options.publish({
          type: 'toolCall',
          call: { executionId: ctx.executionId, server: connection.config.name, tool: UNLISTED_TOOL, startedAt: Date.now(), durationMs: 0, bytesIn: 0, bytesOut: 0, isError: true, error: 'refused before any question: not a tool this server lists (the name is not kept)' },
        });
      }
      throw new ToolCallDeniedError(`${why} (${unlisted} such call${unlisted === 1 ? '' : 's'} refused in this run; list_tools('${connection.config.name}') shows its tools)`);
    };
    return async (payload, ctx) => {
      switch (payload.type) {
        case 'list_servers':
          return { servers: [...allowed].sort() };
        case 'list_tools':
          return { tools: await reachable(payload.server).liveTools() };
        case 'call_tool': {
          const connection = reachable(payload.server);
          if (typeof payload.tool !== 'string' || !payload.tool) throw new Error('Missing tool name');
          const server = connection.config.name;
          if (!isToolName(payload.tool)) refuseTool(connection, `Refused: that is not an MCP tool name (${TOOL_NAME_RULE}), so '${server}' has no such tool`, ctx);
          if (!(await this.lists(connection, payload.tool))) refuseTool(connection, `Refused: '${server}' lists no tool by that name`, ctx);
          const args = payload.arguments ?? {};
          if (typeof args !== 'object' || Array.isArray(args) || args === null) throw new Error('Arguments must be an object');
          return { result: await this.call(connection, payload.tool, args as Record<string, unknown>, ctx) };
        }
        default:
          throw new Error(`Unknown RPC type: ${String(payload.type)}`);
      }
    };
  }

  /** A server's tools as it lists them now (the panel's tool view); starts the server if needed. */
  async tools(name: string): Promise<ToolInfo[]> {
    this.requireKnown(name);
    return this.connection(name).liveTools();
  }

  /** Stops the server's client and starts a fresh one; a failed start is reported in its state. */
  async restart(name: string): Promise<void> {
    this.requireKnown(name);
    const old = this.connections.get(name);
    this.connections.delete(name);
    await old?.stop();
    await this.connection(name).ensureStarted().catch(() => {
      // The connection records the failure as its state and last error, which the panel shows.
    });
  }

  /** After a policy change: a server that is now denied is stopped at once. */
  applyPolicies(): void {
    for (const [name, connection] of this.connections) {
      if (this.options.policy(name) === 'deny') {
        this.connections.delete(name);
        void connection.stop();
      }
    }
  }

  async dispose(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(all.map((c) => c.stop()));
  }

  private async call(connection: ServerConnection, tool: string, args: Record<string, unknown>, ctx: Parameters<RpcHandler>[1]) {
    const startedAt = Date.now();
    const record = { executionId: ctx.executionId, server: connection.config.name, tool, startedAt, bytesIn: jsonBytes(args) };
    // A signal per call: the SDK leaves a listener on the signal it is given, and a run may make thousands
    // of calls, so the run's own signal only holds one listener at a time.
    const call = new AbortController();
    const onAbort = () => call.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await this.approve(connection.config.name, connection, tool, args, ctx);
      const result = await connection.callTool(tool, args, Math.min(this.options.callTimeoutMs, ctx.deadline - Date.now()), call.signal);
      this.options.publish({
        type: 'toolCall',
        call: { ...record, durationMs: Date.now() - startedAt, bytesOut: jsonBytes(result), isError: result.isError === true },
      });
      return result;
    } catch (err) {
      // History keeps the error for display: the server's words (or ours), sanitised and bounded.
      const error = displayLine(err instanceof Error ? err.message : String(err), DISPLAY_LIMITS.storedError);
      this.options.publish({ type: 'toolCall', call: { ...record, durationMs: Date.now() - startedAt, bytesOut: 0, isError: true, error } });
      throw err;
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Whether the server lists this tool: its cached list, listed again when the name is missing (a server
   * that added a tool without saying so) at most every RELIST_MS, never once per call of a flood of bad names.
   */
  private async lists(connection: ServerConnection, tool: string): Promise<boolean> {
    const known = await connection.knownTools().catch(() => [] as ToolInfo[]);
    if (known.some((t) => t.name === tool)) return true;
    if (Date.now() - (this.relisted.get(connection) ?? 0) < RELIST_MS) return false;
    this.relisted.set(connection, Date.now());
    return (await connection.liveTools().catch(() => [] as ToolInfo[])).some((t) => t.name === tool);
  }

  /** Policy first; `ask` waits for an answer with the run's clock stopped. Throws ToolCallDeniedError. */
  private async approve(server: string, connection: ServerConnection, tool: string, args: Record<string, unknown>, ctx: Parameters<RpcHandler>[1]): Promise<void> {
    const approvals = this.options.approvals;
    if (!approvals) return;
    const annotations = (await connection.knownTools().catch(() => [])).find((t) => t.name === tool)?.annotations;
    const policy = approvals.policy(server, tool, annotations);
    if (policy === 'allow') return;
    // The run ended while this call was on its way: nobody is asked, and nothing is kept for a finished run.
    if (ctx.signal.aborted) throw new ToolCallDeniedError(`${server}/${tool} was not asked about: the run has ended`);
    const call = { runId: ctx.executionId, server, tool, args };
    if (policy === 'deny') {
      approvals.broker.refused(call, 'policy');
      throw new ToolCallDeniedError(`${server}/${tool} is denied by policy (toolPolicies)`);
    }
    if (approvals.nobodyToAsk) {
      approvals.broker.refused(call, 'nobody to ask');
      throw new ToolCallDeniedError(`${server}/${tool} needs approval and this one-off run has nobody to ask: allow it in toolPolicies ("${server}/${tool}": "allow"), or run it through a running Sandbar (the app or \`npm run serve\`) and answer there`);
    }
    // A call settled without a question gets no hold (no freeze for an instant reply).
    const settled = approvals.broker.withoutAsking(call);
    const release = settled ? () => {} : ctx.hold();
    try {
      // The line is shown only when the host's copy of it calls this very server and tool.
      const codeLine = ctx.codeLine && codeLineCallsTool(ctx.codeLine, server, tool) ? ctx.codeLine : undefined;
      // Read after the hold: the moment the run ends if nobody answers, which the question must not outlive.
      const until = ctx.deadline;
      const askedAt = Date.now();
      const answer = settled ?? (await approvals.broker.request({ ...call, ...(codeLine ? { codeLine } : {}) }, { channels: approvals.channels(ctx.executionId), signal: ctx.signal, until }));
      if (answer.allowed) return;
      const { outcome } = answer;
      if (answer.why === 'denied-in-run') throw new ToolCallDeniedError(`${server}/${tool} was denied earlier in this run: the same call is denied again without asking`);
      if (answer.why === 'question-cap') {
        throw new ToolCallDeniedError(`${server}/${tool} was denied without asking: this run already asked ${approvals.broker.maxQuestionsPerRun} questions, the most one run may ask`);
      }
      if (outcome?.decision === 'timeout') {
        const waitedSec = Math.min(approvals.timeoutSec(), Math.round((until - askedAt) / 1000));
        throw new ToolCallDeniedError(`${server}/${tool} was denied: nobody answered within ${waitedSec}s`);
      }
      throw new ToolCallDeniedError(`${server}/${tool} was denied (${outcome?.by ?? 'run ended'})`);
    } finally {
      release();
    }
  }

  private requireKnown(name: string): void {
    if (!this.discovery.servers.some((s) => s.name === name)) throw new AppError('invalid_request', `No MCP server named '${name}' was discovered`);
    if (this.options.policy(name) === 'deny') throw new AppError('invalid_request', `Server '${name}' is denied; allow it first`);
  }

  private connection(name: string): ServerConnection {
    let connection = this.connections.get(name);
    if (!connection) {
      const config = this.visible().find((s) => s.name === name);
      if (!config) throw notAvailable(name);
      connection = new ServerConnection(config, {
        startTimeoutMs: this.options.startTimeoutMs,
        version: this.options.version,
        onState: (state, error) => this.options.publish({ type: 'serverStateChanged', server: name, state, error }),
      });
      this.connections.set(name, connection);
    }
    return connection;
  }
}
