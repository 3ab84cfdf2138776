// One long-lived, supervised client for one of the user's MCP servers. Started lazily on first use,
// with a start-up timeout that names the failure; restarted with backoff after a crash; its tool list
// cached and refreshed when the server says it changed.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../shared/errors.js';
import type { ServerConfig, ServerState, ToolInfo } from '../../shared/proxy.js';
import { ChildProcessTransport } from './child-process-transport.js';

/**
 * The SDK's client side (with zod schemas and ajv) loads when the first server starts, not with the
 * proxy: a run that calls no server, such as a one-shot `sandbar run`, never pays for it.
 */
async function loadClientSdk() {
  const [client, stdio, http, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
  };
}

export interface ConnectionOptions {
  startTimeoutMs: number;
  version: string;
  onState: (state: ServerState, error: string | null) => void;
}

const MAX_BACKOFF_MS = 30_000;

function toolInfo(tool: Record<string, unknown>): ToolInfo {
  const keep = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;
  return Object.fromEntries(keep.filter((k) => tool[k] !== undefined && tool[k] !== null).map((k) => [k, tool[k]])) as unknown as ToolInfo;
}

export class ServerConnection {
  state: ServerState = 'stopped';
  lastError: string | null = null;
  private client: Client | undefined;
  private starting: Promise<Client> | undefined;
  private tools: ToolInfo[] | undefined;
  private crashes = 0;
  private crashedAt = 0;
  private stopping = false;

  constructor(
    readonly config: ServerConfig,
    private readonly options: ConnectionOptions,
  ) {}

  get toolCount(): number | null {
    return this.tools?.length ?? null;
  }

  /** Starts the server if needed; concurrent callers share one start. */
  async ensureStarted(): Promise<Client> {
    if (this.client && this.state === 'ready') return this.client;
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** The cached tool list (fetched once, refreshed on list_changed). */
  async cachedTools(): Promise<ToolInfo[]> {
    const client = await this.ensureStarted();
    this.tools ??= await this.fetchTools(client);
    return this.tools;
  }

  async liveTools(): Promise<ToolInfo[]> {
    const client = await this.ensureStarted();
    this.tools = await this.fetchTools(client);
    return this.tools;
  }

  /** The tools as last listed (kept fresh by list-changed notifications); listed now if never. */
  async knownTools(): Promise<ToolInfo[]> {
    return this.tools ?? this.liveTools();
  }

  async callTool(name: string, args: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<CallToolResult> {
    const client = await this.ensureStarted();
    return (await client.callTool({ name, arguments: args }, undefined, {
      timeout: Math.max(1, timeoutMs),
      ...(signal ? { signal } : {}),
    })) as CallToolResult;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => {});
    this.setState('stopped', null);
    this.stopping = false;
  }

  private async fetchTools(client: Client): Promise<ToolInfo[]> {
    const tools: ToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools.map((t) => toolInfo(t as unknown as Record<string, unknown>)));
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  private setState(state: ServerState, error: string | null): void {
    this.state = state;
    this.lastError = error;
    this.options.onState(state, error);
  }

  private async start(): Promise<Client> {
    // After a crash, wait out the backoff (1 s doubling to 30 s) instead of hammering a broken server.
    if (this.crashes > 0) {
      const wait = this.crashedAt + Math.min(1000 * 2 ** (this.crashes - 1), MAX_BACKOFF_MS) - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    this.setState('starting', null);
    const { config } = this;
    const { Client, getDefaultEnvironment, StreamableHTTPClientTransport, ToolListChangedNotificationSchema } = await loadClientSdk();
    const client = new Client({ name: 'sandbar', version: this.options.version });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      this.tools = await this.fetchTools(client).catch(() => undefined);
    });
    const transport =
      config.transport === 'http'
        ? new StreamableHTTPClientTransport(new URL(config.url!), { requestInit: { headers: config.headers ?? {} } })
        : new ChildProcessTransport({
            command: config.command!,
            args: config.args,
            // The config's env over a minimal inherited set: host secrets stay out of servers that did not ask.
            env: { ...getDefaultEnvironment(), ...config.env },
            ...(config.cwd ? { cwd: config.cwd } : {}),
          });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect(transport),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`did not answer within ${this.options.startTimeoutMs / 1000}s`)), this.options.startTimeoutMs);
        }),
      ]);
    } catch (err) {
      // Explain first: closing kills the process, and its exit would hide a start-up timeout.
      const why = this.explain(transport, err);
      await client.close().catch(() => {});
      this.crashes++;
      this.crashedAt = Date.now();
      this.setState('crashed', why);
      throw new Error(`MCP server '${config.name}' failed to start: ${why}`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
    client.onclose = () => {
      if (this.client !== client || this.stopping) return;
      this.client = undefined;
      this.tools = undefined;
      this.crashes++;
      this.crashedAt = Date.now();
      this.setState('crashed', `exited unexpectedly${this.exitDetail(transport)}`);
    };
    this.client = client;
    this.crashes = 0;
    this.setState('ready', null);
    return client;
  }

  private exitDetail(transport: unknown): string {
    if (!(transport instanceof ChildProcessTransport) || !transport.exit) return '';
    const { code, signal } = transport.exit;
    const how = signal ? ` (killed by ${signal})` : code !== null ? ` with code ${code}` : '';
    const tail = transport.stderrTail ? `: ${transport.stderrTail.split('\n').slice(-5).join(' | ')}` : '';
    return `${how}${tail}`;
  }

  private explain(transport: unknown, err: unknown): string {
    if (transport instanceof ChildProcessTransport) {
      const spawnError = transport.exit?.spawnError;
      if (spawnError?.code === 'ENOENT') return `command '${this.config.command}' was not found (is it installed and on PATH?)`;
      if (spawnError) return `command '${this.config.command}' could not start: ${spawnError.code ?? spawnError.message}`;
      if (transport.exit) return `exited${this.exitDetail(transport)}`.replace(/^exited$/, 'exited before it was ready');
      const tail = transport.stderrTail ? ` (stderr: ${transport.stderrTail.split('\n').slice(-5).join(' | ')})` : '';
      return `${errorMessage(err)}${tail}`;
    }
    return errorMessage(err);
  }
}
