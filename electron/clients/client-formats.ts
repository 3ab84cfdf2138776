// What Sandbar's entry looks like in each MCP client's config file, per the clients' own documentation.
import { isDeepStrictEqual } from 'node:util';
import type { ClientId } from '../proxy/discovery/client-paths.js';

/** The entry's name in every client's server list. */
export const ENTRY_NAME = 'sandbar';

export interface ClientTargets {
  /** HTTP endpoint and bearer token, for clients that speak Streamable HTTP. */
  http: () => { url: string; token: string };
  /**
   * How to launch `sandbar stdio`, for clients that only launch commands: absolute paths (the Node binary
   * and Sandbar's own entry script, or the app itself), never `npx`, and the environment that makes it
   * join this instance (SANDBAR_HOME) rather than start an engine of its own.
   */
  stdio: () => { command: string; args: string[]; env: Record<string, string> };
}

export type ClientTransport = 'http' | 'stdio';

export interface ClientFormat {
  label: string;
  /** The key under which the client lists its servers. */
  container: 'mcpServers' | 'servers';
  /** VS Code reads its files as JSON with comments and trailing commas; the others use JSON.parse. */
  jsonc: boolean;
  transport: ClientTransport;
  /** Indentation for a file Sandbar creates, as the client itself would write it. */
  newFileIndent: string;
  entry: (targets: ClientTargets) => Record<string, unknown>;
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function stdioEntry(targets: ClientTargets): Record<string, unknown> {
  const { command, args, env } = targets.stdio();
  return { command, args, env };
}

/** One sentence for the dialog before a change: what the client will do with the entry. */
export function entrySummary(format: ClientFormat, targets: ClientTargets, action: 'add' | 'remove'): string {
  if (action === 'remove') return `${format.label} will no longer ${format.transport === 'stdio' ? 'start' : 'connect to'} Sandbar.`;
  if (format.transport === 'http') return `${format.label} will connect to ${targets.http().url} with Sandbar's client token.`;
  const { command, args, env } = targets.stdio();
  const settings = Object.entries(env).map(([key, value]) => `${key}=${value}`).join(' ');
  return `${format.label} will start ${[command, ...args].join(' ')} with ${settings}, so it joins this Sandbar (the same engine, history and servers) instead of starting one of its own.`;
}

/** An HTTP entry in a client's own shape for the URL, with the bearer header every one of them takes. */
function httpEntry(shape: (url: string) => Record<string, unknown>): ClientFormat['entry'] {
  return (targets) => {
    const { url, token } = targets.http();
    return { ...shape(url), headers: bearer(token) };
  };
}

export const CLIENT_FORMATS: Record<ClientId, ClientFormat> = {
  // Claude Desktop's config file only launches local commands; remote servers need its Connectors UI.
  'claude-desktop': { label: 'Claude Desktop', container: 'mcpServers', jsonc: false, transport: 'stdio', newFileIndent: '  ', entry: stdioEntry },
  'claude-code': {
    label: 'Claude Code',
    container: 'mcpServers',
    jsonc: false,
    transport: 'http',
    newFileIndent: '  ',
    entry: httpEntry((url) => ({ type: 'http', url })),
  },
  cursor: {
    label: 'Cursor',
    container: 'mcpServers',
    jsonc: false,
    transport: 'http',
    newFileIndent: '  ',
    entry: httpEntry((url) => ({ url })),
  },
  vscode: {
    label: 'VS Code',
    container: 'servers',
    jsonc: true,
    transport: 'http',
    newFileIndent: '\t',
    entry: httpEntry((url) => ({ type: 'http', url })),
  },
  windsurf: {
    label: 'Windsurf',
    container: 'mcpServers',
    jsonc: false,
    transport: 'http',
    newFileIndent: '  ',
    // Windsurf ignores `url`: its remote servers are `serverUrl`.
    entry: httpEntry((url) => ({ serverUrl: url })),
  },
};

/**
 * Whether an existing entry already says what Sandbar would write. Keys the user or the client added
 * (`disabled`, `env`, another header) do not make it stale; a different url, token or command does.
 */
export function entryMatches(existing: unknown, wanted: unknown): boolean {
  if (!isPlainObject(wanted)) return isDeepStrictEqual(existing, wanted);
  if (!isPlainObject(existing)) return false;
  return Object.entries(wanted).every(([key, value]) => entryMatches(existing[key], value));
}

/** The secrets an existing entry carries in its headers (an old token), so previews can mask them too. */
export function entrySecrets(entry: unknown): string[] {
  if (!isPlainObject(entry) || !isPlainObject(entry.headers)) return [];
  return Object.values(entry.headers)
    .filter((value): value is string => typeof value === 'string')
    .map((value) => value.replace(/^Bearer\s+/i, ''))
    .filter((value) => value !== '');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
