// One parsed config document (a file's JSON, or the panel's list) → servers, skipped entries and problems.
import type { DiscoveryResult } from '../../../shared/proxy.js';
import { describeValue, isRecord, parseEntry, type EntryContext } from './entry.js';

export interface ParseOptions {
  /** Claude Code's `~/.claude.json` also keeps per-project servers under `projects.<folder>.mcpServers`. */
  claudeProjects?: boolean;
}

export function emptyResult(): DiscoveryResult {
  return { servers: [], problems: [], skipped: [] };
}

export function parseConfigDocument(doc: unknown, source: string, options: ParseOptions = {}): DiscoveryResult {
  const result = emptyResult();
  if (!isRecord(doc)) {
    result.problems.push({ source, message: `The file holds ${describeValue(doc)}, not an object with "mcpServers".` });
    return result;
  }
  const ctx: EntryContext = { source, defaultDescription: typeof doc.description === 'string' ? doc.description : '' };
  // Both keys may appear; `mcpServers` is read first so its definitions win within the file.
  addTable(result, doc.mcpServers, 'mcpServers', ctx);
  addTable(result, doc.servers, 'servers', ctx);
  if (options.claudeProjects && isRecord(doc.projects)) {
    for (const [folder, project] of Object.entries(doc.projects)) {
      if (isRecord(project)) addTable(result, project.mcpServers, `projects[${JSON.stringify(folder)}].mcpServers`, { ...ctx, defaultCwd: folder });
    }
  }
  return result;
}

/** Servers added in the panel: the same entry format, one entry at a time. */
export function parseSettingsServers(list: { name: string; entry: unknown }[], source: string): DiscoveryResult {
  const result = emptyResult();
  for (const { name, entry } of list) addOutcome(result, name, entry, { source, defaultDescription: '' });
  return result;
}

function addTable(result: DiscoveryResult, table: unknown, key: string, ctx: EntryContext): void {
  if (table === undefined || table === null) return;
  if (!isRecord(table)) {
    result.problems.push({ source: ctx.source, message: `"${key}" is ${describeValue(table)}, not an object; its servers were skipped.` });
    return;
  }
  for (const [name, raw] of Object.entries(table)) addOutcome(result, name, raw, ctx);
}

function addOutcome(result: DiscoveryResult, name: string, raw: unknown, ctx: EntryContext): void {
  const outcome = parseEntry(name, raw, ctx);
  if ('server' in outcome) result.servers.push(outcome.server);
  else result.skipped.push(outcome.skipped);
}
