// Settings that decide what runs on the host, outside any sandbox: a server entry's command, the container
// runtime binary, the OCI runtime, the seccomp profile, the kubeconfig (its credential plugins run), and the
// two that choose which configs' servers are loaded (importClients, allowSelfServer: the servers those
// configs name run as the person). A settings patch is checked against them before it is applied, so the
// control API can refuse them over HTTP and the desktop can ask the person first. Egress's `secrets` (which
// credential leaves the computer, for which host) and `egressCaFile` (which upstream certificates are trusted)
// are held to the same rule: a token holder must not be able to send a credential to a host of its choice.
import { isDeepStrictEqual } from 'node:util';
import { escapeInvisible } from '../../shared/display-text.js';
import type { ServerConfig } from '../../shared/proxy.js';
import type { Settings } from '../../shared/settings.js';
import { describeEnv } from './env-words.js';
import { foldersChange } from './folder-change.js';
import { isPlainObject } from './settings-patch.js';

/** A kubeconfig may name an `exec` credential plugin: choosing the file chooses a program to run. */
export const HOST_EXEC_FIELDS = ['runtime', 'ociRuntime', 'seccomp', 'kubeconfig', 'egressCaFile'] as const;
/** Settings that bring in other configs' servers: adding a client, or letting Sandbar's own entries through. */
export const SERVER_SOURCE_FIELDS = ['importClients', 'allowSelfServer'] as const;

export interface HostExecChange {
  /** Dotted path: `runtime`, `mcpServers.github`, `importClients`. */
  field: string;
  /** What would run, in words a person can check (`/bin/sh -c "id"`, `runtime: /opt/podman`). */
  command: string;
  /** What the command's environment changes beyond the obvious (PATH, LD_PRELOAD, ...), in words. */
  notes?: string[];
}

/** The servers discovery would load under some settings (core.ts: discoverServers); absent, changes are named without them. */
export type ServersPreview = (settings: Settings) => readonly ServerConfig[];

// Plain words stay plain; anything else is JSON-quoted with invisible characters escaped, so it shows.
const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : escapeInvisible(JSON.stringify(arg)));

/** A server entry as the command line (or URL) it would start; env values shown unless they look secret. */
export function describeServerEntry(entry: unknown): string {
  if (!isPlainObject(entry)) return escapeInvisible(JSON.stringify(entry) ?? String(entry));
  if (typeof entry.command === 'string') {
    const args = Array.isArray(entry.args) ? entry.args.map((a) => quote(String(a))) : [];
    const env = isPlainObject(entry.env) ? describeEnv(entry.env, quote).assignments : [];
    const cwd = typeof entry.cwd === 'string' ? ` (in ${quote(entry.cwd)})` : '';
    return [...env, quote(entry.command), ...args].join(' ') + cwd;
  }
  const url = typeof entry.url === 'string' ? entry.url : entry.serverUrl;
  // Headers are shown like env: a person sees what is sent, credentials masked.
  const headers = isPlainObject(entry.headers) ? describeEnv(entry.headers, quote).assignments : [];
  return `HTTP server ${quote(String(url))}${headers.length > 0 ? ` with headers ${headers.join(' ')}` : ''}`;
}

/** A secret as where it comes from and where it goes; a typed-in value is never shown. */
export function describeSecretEntry(name: string, entry: unknown): string {
  if (!isPlainObject(entry)) return `secret ${quote(name)}: ${escapeInvisible(JSON.stringify(entry) ?? String(entry))}`;
  const from = typeof entry.env === 'string' ? `the variable ${quote(entry.env)}` : typeof entry.file === 'string' ? `the file ${quote(entry.file)}` : 'a typed-in value (hidden)';
  const hosts = Array.isArray(entry.hosts) ? entry.hosts.map((h) => quote(String(h))).join(', ') : '(no hosts)';
  const header = typeof entry.header === 'string' ? entry.header.slice(0, entry.header.indexOf(':')) : 'Authorization';
  return `secret ${quote(name)} from ${from}, sent in the ${quote(header)} header to ${hosts}`;
}

/** The loader and path variables an entry sets, in words (none: no notes). */
function entryNotes(entry: unknown): { notes?: string[] } {
  if (!isPlainObject(entry) || !isPlainObject(entry.env)) return {};
  const { notes } = describeEnv(entry.env, quote);
  return notes.length > 0 ? { notes } : {};
}

function serverChange(field: string, server: ServerConfig): HostExecChange {
  return { field, command: `${describeServerEntry(server)} (server ${quote(server.name)} from ${quote(server.source)})`, ...entryNotes(server) };
}

/** Does the patch widen a server source (a client added to importClients, allowSelfServer turned on)? */
function widensSources(current: Partial<Settings>, patch: Record<string, unknown>): string[] {
  const fields: string[] = [];
  if (Array.isArray(patch.importClients)) {
    const before = new Set(current.importClients ?? []);
    if (patch.importClients.some((c) => !before.has(c as string))) fields.push('importClients');
  }
  if (patch.allowSelfServer === true && current.allowSelfServer !== true) fields.push('allowSelfServer');
  return fields;
}

/**
 * The host-executing changes `patch` makes to `current` (the settings file's values). Adding or editing a
 * server entry counts; removing one (`null`) does not, nor does sending a value unchanged. A widened server
 * source counts even when its configs name no server today (servers added there later will run); with a
 * preview (`next`: the settings after the patch), each server it would add is listed as its command line.
 */
export function hostExecChanges(
  current: Partial<Settings> & Record<string, unknown>,
  patch: Record<string, unknown>,
  preview?: { next: Settings; servers: ServersPreview },
): HostExecChange[] {
  const changes: HostExecChange[] = [];
  for (const field of HOST_EXEC_FIELDS) {
    if (!Object.hasOwn(patch, field)) continue;
    const next = patch[field];
    if (isDeepStrictEqual(next, current[field] ?? null)) continue;
    // Cleared: the runtime binaries are found again; egressCaFile trusts the system CAs only.
    const cleared = field === 'egressCaFile' ? '(the system CAs only)' : '(found automatically)';
    changes.push({ field, command: `${field}: ${next === null ? cleared : quote(String(next))}` });
  }
  // Folders hand a sandbox part of this computer's files: the person confirms the list (folder-change.ts).
  const folders = foldersChange(current.folders, patch);
  if (folders) changes.push(folders);
  const servers = patch.mcpServers;
  if (isPlainObject(servers)) {
    const before = isPlainObject(current.mcpServers) ? current.mcpServers : {};
    for (const [name, entry] of Object.entries(servers)) {
      if (entry === null || isDeepStrictEqual(entry, before[name])) continue;
      changes.push({ field: `mcpServers.${name}`, command: describeServerEntry(entry), ...entryNotes(entry) });
    }
  }
  const secrets = patch.secrets;
  if (isPlainObject(secrets)) {
    const before = isPlainObject(current.secrets) ? current.secrets : {};
    for (const [name, entry] of Object.entries(secrets)) {
      if (entry === null || isDeepStrictEqual(entry, before[name])) continue;
      changes.push({ field: `secrets.${name}`, command: describeSecretEntry(name, entry) });
    }
  }
  const widened = widensSources(current, patch);
  if (widened.length > 0) changes.push(...sourceChanges(widened, current, patch, preview));
  return changes;
}

function sourceChanges(fields: string[], current: Partial<Settings>, patch: Record<string, unknown>, preview?: { next: Settings; servers: ServersPreview }): HostExecChange[] {
  const field = fields.join(', ');
  const setting = fields.map((f) => `${f}: ${f === 'importClients' ? (patch.importClients as unknown[]).map((c) => quote(String(c))).join(', ') || '(none)' : 'true'}`).join('; ');
  if (!preview) return [{ field, command: `${setting} (the servers these configs name would run on this computer)` }];
  // Only the sources change between the two: a server edited in the same patch is listed under mcpServers.
  const unwidened = { ...preview.next, importClients: current.importClients ?? [], allowSelfServer: current.allowSelfServer ?? false };
  const before = new Map(preview.servers(unwidened).map((s) => [s.name, s]));
  const added = preview.servers(preview.next).filter((s) => !isDeepStrictEqual(before.get(s.name), s));
  if (added.length === 0) return [{ field, command: `${setting} (no server in these configs now; servers added to them later would run on this computer)` }];
  return added.map((server) => serverChange(field, server));
}
