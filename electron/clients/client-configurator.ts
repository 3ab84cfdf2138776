// Adds Sandbar to, or removes it from, the MCP clients on this machine: one `sandbar` entry in each
// client's own config file, every other byte of the file left alone, a backup before each write.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError, errorMessage } from '../../shared/errors.js';
import { CLIENT_IDS, clientConfigPaths } from '../proxy/discovery/client-paths.js';
import type { ClientId } from '../proxy/discovery/client-paths.js';
import { changeDiff } from './change-diff.js';
import { CLIENT_FORMATS, ENTRY_NAME, entryMatches, entrySecrets, entrySummary } from './client-formats.js';
import type { ClientFormat, ClientTargets } from './client-formats.js';
import { editEntry, parseConfig, readEntry } from './jsonc-edit.js';
import type { EntryPath } from './jsonc-edit.js';
import { fileMode, PRIVATE_CONFIG_MODE, readConfigBytes, writeAtomic, writeBackup } from './safe-write.js';
import type { ConfigFile } from './safe-write.js';
import type { ClientChangePreview, ClientChangeResult, ClientView as ClientStatus } from '../../shared/contract.js';

export type { ClientTargets } from './client-formats.js';
export type { ClientId } from '../proxy/discovery/client-paths.js';

// The shapes the panel sees are the contract's; documented there.
export type { ClientChangePreview, ClientChangeResult, ClientView as ClientStatus } from '../../shared/contract.js';
export type ClientAction = ClientChangePreview['action'];

export interface ClientConfiguratorOptions {
  home: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  targets: ClientTargets;
  now?: () => Date;
  /** Whether a file exists (the stdio entry's command and script must); tests pass their own. */
  exists?: (file: string) => boolean;
}

/** A computed change: what is there, what would be, and how to show it. */
interface Plan {
  preview: ClientChangePreview;
  current: ConfigFile;
  after: string;
  /** Set when the written file must have this mode (it will hold the client token). */
  mode: number | undefined;
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

export class ClientConfigurator {
  private readonly options: ClientConfiguratorOptions;

  constructor(options: ClientConfiguratorOptions) {
    this.options = options;
  }

  detect(): Promise<ClientStatus[]> {
    return Promise.all(CLIENT_IDS.map((id) => this.status(id)));
  }

  async preview(id: ClientId, action: ClientAction): Promise<ClientChangePreview> {
    return (await this.plan(id, action)).preview;
  }

  async apply(id: ClientId, action: ClientAction): Promise<ClientChangeResult> {
    const { preview, current, after, mode } = await this.plan(id, action);
    if (!preview.changed) return { ...preview, backup: null };
    const now = (this.options.now ?? (() => new Date()))();
    const backup = current.bytes === null ? null : await writeBackup(current.file, current.bytes, now);
    await writeAtomic(current.file, after, current.bytes, mode === undefined ? {} : { mode });
    return { ...preview, backup };
  }

  private async status(id: ClientId): Promise<ClientStatus> {
    const format = CLIENT_FORMATS[id];
    const file = this.fileOf(id);
    const status: ClientStatus = { id, label: format.label, file, exists: false, installed: false, configured: 'no', transport: format.transport, error: null };
    try {
      const current = await readConfigBytes(file);
      status.exists = current.bytes !== null;
      status.installed = status.exists || (await isDirectory(this.installDirOf(id, file)));
      const existing = readEntry(parseConfig(file, current.text, { jsonc: format.jsonc, fallbackIndent: format.newFileIndent }), entryPath(format));
      if (existing !== undefined) status.configured = entryMatches(existing, format.entry(this.options.targets)) ? 'yes' : 'stale';
    } catch (err) {
      status.exists ||= await isFile(file);
      status.installed ||= status.exists || (await isDirectory(this.installDirOf(id, file)));
      status.error = errorMessage(err);
    }
    return status;
  }

  private async plan(id: ClientId, action: ClientAction): Promise<Plan> {
    if (!CLIENT_IDS.includes(id)) throw new AppError('invalid_request', `Unknown MCP client "${String(id)}".`);
    if (action !== 'add' && action !== 'remove') throw new AppError('invalid_request', `Unknown action "${String(action)}": use add or remove.`);
    const format = CLIENT_FORMATS[id];
    const file = this.fileOf(id);
    const current = await readConfigBytes(file);
    const doc = parseConfig(file, current.text, { jsonc: format.jsonc, fallbackIndent: format.newFileIndent });
    const at = entryPath(format);
    const existing = readEntry(doc, at);
    if (action === 'add' && format.transport === 'stdio') this.checkLaunchable(format.label);
    const wanted = action === 'add' ? format.entry(this.options.targets) : undefined;
    // Adding over an entry that already matches changes nothing (the user's extra keys stay).
    const after = action === 'add' && entryMatches(existing, wanted) ? current.text : editEntry(doc, at, wanted);
    const secrets = [...entrySecrets(existing), ...entrySecrets(wanted)];
    const changed = after !== current.text;
    const diff = changeDiff(file, current.text, after, secrets);
    // A file that will hold the client token becomes owner-only, whatever its mode was (and the diff
    // dialog says so). Other edits keep the file's mode.
    const holdsToken = changed && action === 'add' && entrySecrets(wanted).length > 0;
    const before = current.bytes === null ? null : await fileMode(file);
    const mode = holdsToken ? PRIVATE_CONFIG_MODE : undefined;
    const modeChange = holdsToken && before !== null && (before & 0o777) !== PRIVATE_CONFIG_MODE ? { from: octal(before), to: octal(PRIVATE_CONFIG_MODE) } : null;
    const summary = entrySummary(format, this.options.targets, action);
    return { preview: { id, action, file, diff, changed, modeChange, summary }, current, after, mode };
  }

  /** A client launches the entry's command with no shell and no PATH of ours: every path in it must exist. */
  private checkLaunchable(label: string): void {
    const { command, args } = this.options.targets.stdio();
    const exists = this.options.exists ?? existsSync;
    const p = this.options.platform === 'win32' ? path.win32 : path.posix;
    for (const file of [command, ...args.filter((a) => p.isAbsolute(a))]) {
      if (!p.isAbsolute(file)) throw new AppError('internal', `${label} would start "${file}", which is not an absolute path; Sandbar writes only commands that exist on this machine.`);
      if (!exists(file)) {
        throw new AppError('invalid_request', `${label} would start ${file}, which does not exist here. Build Sandbar first (npm run build), then add it again.`);
      }
    }
  }

  /** VS Code's mcp.json (`servers`), never settings.json: that is the format VS Code now documents. */
  private fileOf(id: ClientId): string {
    const { platform, home, env } = this.options;
    const candidates = clientConfigPaths(platform, home, env).filter((c) => c.client === id);
    const chosen = id === 'vscode' ? candidates.find((c) => c.path.endsWith('mcp.json')) : candidates[0];
    if (!chosen) throw new AppError('internal', `No config file is known for ${id}.`);
    return chosen.path;
  }

  /** Claude Code's file sits in the home folder itself, so its own folder (~/.claude) says it is installed. */
  private installDirOf(id: ClientId, file: string): string {
    const p = this.options.platform === 'win32' ? path.win32 : path.posix;
    return id === 'claude-code' ? p.join(this.options.home, '.claude') : p.dirname(file);
  }
}

function entryPath(format: ClientFormat): EntryPath {
  return { container: format.container, name: ENTRY_NAME };
}

async function isDirectory(dir: string): Promise<boolean> {
  return stat(dir).then((s) => s.isDirectory(), () => false);
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then((s) => s.isFile(), () => false);
}
