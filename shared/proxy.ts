// The user's MCP servers as Sandbar sees them: discovered configs, their state, and what a sandbox is told.

/** One server definition after discovery (first definition of a name wins). */
export interface ServerConfig {
  name: string;
  /** Where it was defined: a file path, or `settings` for servers added in the panel. */
  source: string;
  /** stdio: a command Sandbar launches; http: a Streamable HTTP URL. */
  transport: 'stdio' | 'http';
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  description: string;
}

export interface DiscoveryProblem {
  source: string;
  /** Why the file (or one entry of it) was skipped, in words for the panel. */
  message: string;
}

export interface SkippedServer {
  name: string;
  source: string;
  reason: 'disabled' | 'self-reference' | 'duplicate' | 'invalid';
  detail?: string;
}

export interface DiscoveryResult {
  servers: ServerConfig[];
  problems: DiscoveryProblem[];
  skipped: SkippedServer[];
}

export type ServerState = 'stopped' | 'starting' | 'ready' | 'crashed';

/** A tool as the host server listed it (MCP field names). */
export interface ToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/**
 * What the agent receives in the `start` frame under `context.mcp` (never on the command line or in the
 * environment). Aliases, docs and search are computed inside the sandbox from this.
 */
export interface SandboxMcpContext {
  /** Servers loaded for this run, in request order, with their cached tool lists. */
  loaded: { name: string; description: string; cwd: string | null; tools: ToolInfo[] }[];
  /** Every discovered, allowed server (name → description), loaded or not. */
  discovered: { name: string; description: string }[];
}
