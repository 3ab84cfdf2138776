// Discovery of the person's MCP servers, in precedence order: servers added in the panel, ~/MCPs/*.json
// (sorted by file name), the file named by MCP_SERVERS_CONFIG, then the client configs they chose to import.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { DiscoveryResult } from '../../../shared/proxy.js';
import { errorMessage } from '../../../shared/errors.js';
import { clientConfigPaths } from './client-paths.js';
import { isRecord } from './entry.js';
import { mergeSources } from './merge.js';
import { emptyResult, parseConfigDocument, parseSettingsServers } from './parse-config.js';
import { readConfigFile } from './read-config-file.js';

export interface DiscoveryOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Servers added in the panel, highest precedence. */
  settingsServers: { name: string; entry: unknown }[];
  /** Client ids (see CLIENT_IDS) whose configs the person chose to import. */
  importClients: string[];
  /** Keep entries that would launch Sandbar itself (the settings override). */
  allowSelf: boolean;
  /** The port of Sandbar's own HTTP endpoint, so a url pointing back at it is recognised; null when not serving. */
  ownPort: number | null;
}

/** The source label of servers added in the panel. */
export const SETTINGS_SOURCE = 'settings';

interface FileSource {
  path: string;
  /** VS Code's files are JSON with comments. */
  jsonc?: boolean;
  /** VS Code's settings.json keeps servers under `mcp`. */
  underMcpKey?: boolean;
  claudeProjects?: boolean;
  /** A file the person named explicitly: its absence is worth saying. */
  required?: boolean;
}

export function mcpsDir(home: string): string {
  return path.join(home, 'MCPs');
}

/** MCP_SERVERS_CONFIG with `~` expanded; relative paths are relative to the working folder, as in a shell. */
export function envConfigPath(options: Pick<DiscoveryOptions, 'env' | 'home'>): string | null {
  const raw = options.env.MCP_SERVERS_CONFIG?.trim();
  if (!raw) return null;
  if (raw === '~' || raw.startsWith('~/') || raw.startsWith('~\\')) return path.join(options.home, raw.slice(1));
  return path.resolve(raw);
}

/** The client config files of the clients the person chose to import. */
export function importedFiles(options: Pick<DiscoveryOptions, 'env' | 'home' | 'platform' | 'importClients'>): FileSource[] {
  const wanted = new Set(options.importClients);
  return clientConfigPaths(options.platform, options.home, options.env)
    .filter(({ client }) => wanted.has(client))
    .map(({ client, path: file }) => ({
      path: file,
      jsonc: client === 'vscode',
      underMcpKey: client === 'vscode' && /settings\.json$/i.test(file),
      claudeProjects: client === 'claude-code',
    }));
}

export function discoverServers(options: DiscoveryOptions): DiscoveryResult {
  const sources: DiscoveryResult[] = [parseSettingsServers(options.settingsServers, SETTINGS_SOURCE)];
  sources.push(...readMcpsDir(mcpsDir(options.home)));
  const envFile = envConfigPath(options);
  if (envFile !== null) sources.push(readEnvConfig(envFile));
  for (const file of importedFiles(options)) sources.push(readSource(file));
  return mergeSources(sources, options);
}

function problem(source: string, message: string): DiscoveryResult {
  return { ...emptyResult(), problems: [{ source, message }] };
}

function readSource(file: FileSource): DiscoveryResult {
  const read = readConfigFile(file.path, { jsonc: file.jsonc ?? false });
  if (read.kind === 'missing') return file.required ? problem(file.path, 'File not found.') : emptyResult();
  if (read.kind === 'problem') return problem(file.path, read.message);
  let doc = read.value;
  if (file.underMcpKey && isRecord(doc)) doc = isRecord(doc.mcp) ? doc.mcp : {};
  return parseConfigDocument(doc, file.path, { claudeProjects: file.claudeProjects ?? false });
}

function readEnvConfig(file: string): DiscoveryResult {
  // The reference reads TOML here; without a TOML parser in the dependencies, say so instead of guessing.
  if (/\.toml$/i.test(file)) return problem(file, 'TOML is not supported (MCP_SERVERS_CONFIG); write the servers as JSON: {"mcpServers": {…}}.');
  return readSource({ path: file, required: true });
}

/** Every `*.json` directly inside ~/MCPs, sorted by name (code-point order, the same in every locale). */
function readMcpsDir(dir: string): DiscoveryResult[] {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.toLowerCase().endsWith('.json'))
      .map((entry) => entry.name);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    return [problem(dir, `Cannot list the folder: ${errorMessage(err)}`)];
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((name) => readSource({ path: path.join(dir, name) }));
}
