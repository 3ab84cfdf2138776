// Settings that decide what runs on the host, outside any sandbox: a server entry's command, the container
// runtime binary, the OCI runtime, the seccomp profile and the kubeconfig (its credential plugins run). A
// settings patch is checked against them before it is applied, so the control API can refuse them over
// HTTP and the desktop can ask the person first.
import { isDeepStrictEqual } from 'node:util';
import type { Settings } from '../../shared/settings.js';
import { foldersChange } from './folder-change.js';
import { isPlainObject } from './settings-patch.js';

/** A kubeconfig may name an `exec` credential plugin: choosing the file chooses a program to run. */
export const HOST_EXEC_FIELDS = ['runtime', 'ociRuntime', 'seccomp', 'kubeconfig'] as const;

export interface HostExecChange {
  /** Dotted path: `runtime`, `mcpServers.github`. */
  field: string;
  /** What would run, in words a person can check (`/bin/sh -c "id"`, `runtime: /opt/podman`). */
  command: string;
}

const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg));

/** A server entry as the command line (or URL) it would start. */
export function describeServerEntry(entry: unknown): string {
  if (!isPlainObject(entry)) return JSON.stringify(entry);
  if (typeof entry.command === 'string') {
    const args = Array.isArray(entry.args) ? entry.args.map((a) => quote(String(a))) : [];
    const env = isPlainObject(entry.env) ? Object.keys(entry.env).map((k) => `${k}=…`) : [];
    const cwd = typeof entry.cwd === 'string' ? ` (in ${entry.cwd})` : '';
    return [...env, quote(entry.command), ...args].join(' ') + cwd;
  }
  const url = typeof entry.url === 'string' ? entry.url : entry.serverUrl;
  return `HTTP server ${String(url)}`;
}

/**
 * The host-executing changes `patch` makes to `current` (the settings file's values). Adding or editing a
 * server entry counts; removing one (`null`) does not, nor does sending a value unchanged.
 */
export function hostExecChanges(current: Partial<Settings> & Record<string, unknown>, patch: Record<string, unknown>): HostExecChange[] {
  const changes: HostExecChange[] = [];
  for (const field of HOST_EXEC_FIELDS) {
    if (!Object.hasOwn(patch, field)) continue;
    const next = patch[field];
    if (isDeepStrictEqual(next, current[field] ?? null)) continue;
    changes.push({ field, command: `${field}: ${next === null ? '(found automatically)' : String(next)}` });
  }
  // Folders hand a sandbox part of this computer's files: the person confirms the list (folder-change.ts).
  const folders = foldersChange(current.folders, patch);
  if (folders) changes.push(folders);
  const servers = patch.mcpServers;
  if (isPlainObject(servers)) {
    const before = isPlainObject(current.mcpServers) ? current.mcpServers : {};
    for (const [name, entry] of Object.entries(servers)) {
      if (entry === null || isDeepStrictEqual(entry, before[name])) continue;
      changes.push({ field: `mcpServers.${name}`, command: describeServerEntry(entry) });
    }
  }
  return changes;
}
