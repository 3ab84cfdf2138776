// One server entry of a config file → a ServerConfig, or the reason it was skipped (never a thrown error).
import { displayLine } from '../../../shared/display-text.js';
import type { ServerConfig, SkippedServer } from '../../../shared/proxy.js';
import { isServerName, SERVER_NAME_RULE } from '../../../shared/server-entry.js';

export type EntryOutcome = { server: ServerConfig } | { skipped: SkippedServer };

export interface EntryContext {
  source: string;
  /** The file's top-level `description`, used when the entry has none. */
  defaultDescription: string;
  /** Claude Code's per-project servers run in their project folder. */
  defaultCwd?: string;
}

/** `type` values that mean Streamable HTTP, normalised (lower case, no `-`/`_`): VS Code, Cursor, Claude Code spellings. */
const HTTP_TYPES = new Set(['http', 'streamablehttp']);

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** For messages: what a JSON value is, in words. */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** Config values become strings the way a person expects on a command line: 5 → "5", true → "true". */
export function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stringify(v)]));
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function parseEntry(name: string, raw: unknown, ctx: EntryContext): EntryOutcome {
  const skip = (reason: SkippedServer['reason'], detail?: string): EntryOutcome => ({
    skipped: { name, source: ctx.source, reason, ...(detail ? { detail } : {}) },
  });
  if (!isServerName(name)) {
    // The name itself is not safe to show as it is: the panel gets a sanitised, bounded copy.
    const detail = name.trim() === '' ? 'The server has an empty name.' : `The server name is not allowed: server names are ${SERVER_NAME_RULE}.`;
    return { skipped: { name: displayLine(name, 64), source: ctx.source, reason: 'invalid', detail } };
  }
  if (!isRecord(raw)) return skip('invalid', `The entry is ${describeValue(raw)}, not an object.`);
  if (raw.disabled === true) return skip('disabled');

  const type = raw.type === undefined ? undefined : stringify(raw.type).toLowerCase().replace(/[-_]/g, '');
  if (type === 'sse') return skip('invalid', 'SSE servers are not supported; use the server’s Streamable HTTP URL.');
  if (type !== undefined && type !== 'stdio' && !HTTP_TYPES.has(type)) return skip('invalid', `Unknown server type ${JSON.stringify(raw.type)}.`);

  const command = text(raw.command);
  // Windsurf spells the URL `serverUrl`.
  const url = text(raw.url) ?? text(raw.serverUrl);
  const description = typeof raw.description === 'string' ? raw.description : ctx.defaultDescription;
  const remote = type === undefined ? command === undefined && url !== undefined : type !== 'stdio';

  if (remote) {
    if (url === undefined) return skip('invalid', 'An HTTP server needs a "url".');
    if (!isHttpUrl(url)) return skip('invalid', `The url ${JSON.stringify(url)} is not an http:// or https:// address.`);
    const server: ServerConfig = { name, source: ctx.source, transport: 'http', url, args: [], env: {}, description };
    if (isRecord(raw.headers)) server.headers = stringRecord(raw.headers);
    return { server };
  }
  if (command === undefined) {
    return skip('invalid', type === 'stdio' ? 'A stdio server needs a "command".' : 'The entry has neither a "command" nor a "url".');
  }
  const server: ServerConfig = {
    name,
    source: ctx.source,
    transport: 'stdio',
    command,
    args: Array.isArray(raw.args) ? raw.args.map(stringify) : [],
    env: stringRecord(raw.env),
    description,
  };
  const cwd = text(raw.cwd) ?? ctx.defaultCwd;
  if (cwd !== undefined) server.cwd = cwd;
  return { server };
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
