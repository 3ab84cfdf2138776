// Temporary home folders, the fixture config files and fixed targets for the client configuration tests.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';
import { ClientConfigurator } from '../../../electron/clients/client-configurator.js';
import type { ClientConfiguratorOptions, ClientTargets } from '../../../electron/clients/client-configurator.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/clients/', import.meta.url));

export const TOKEN = 'sbk_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0Zq7W';
export const URL_NOW = 'http://127.0.0.1:7337/mcp';
export const STDIO = { command: '/opt/Sandbar/resources/sandbar', args: ['stdio'], env: { SANDBAR_HOME: '/home/me/.config/sandbar' } };
export const NOW = new Date('2025-01-02T03:04:05.678Z');
export const BACKUP_SUFFIX = '.sandbar-backup-2025-01-02T03-04-05-678Z';

export function tempHome(): string {
  return mkdtempSync(path.join(tmpdir(), 'sandbar-clients-'));
}

export function fixture(name: string): Buffer {
  return readFileSync(path.join(FIXTURES, name));
}

/** Writes `content` at `home/relative`, creating folders. Returns the path. */
export function put(home: string, relative: string, content: string | Buffer): string {
  const file = path.join(home, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

export function targets(overrides: { url?: string; token?: string; command?: string } = {}): ClientTargets {
  return {
    http: () => ({ url: overrides.url ?? URL_NOW, token: overrides.token ?? TOKEN }),
    stdio: () => ({ command: overrides.command ?? STDIO.command, args: [...STDIO.args], env: { ...STDIO.env } }),
  };
}

export function configurator(home: string, overrides: Partial<ClientConfiguratorOptions> = {}): ClientConfigurator {
  // The fixed stdio command is not on this machine: every path counts as existing unless a test says not.
  return new ClientConfigurator({ home, platform: 'linux', env: {}, targets: targets(), now: () => NOW, exists: () => true, ...overrides });
}

/** Parses strictly (JSON.parse) or as VS Code does, failing loudly on any error. */
export function parseAs(text: string, jsonc: boolean): Record<string, unknown> {
  if (!jsonc) return JSON.parse(text) as Record<string, unknown>;
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true }) as Record<string, unknown>;
  if (errors.length > 0) throw new Error(`unparseable JSONC: ${JSON.stringify(errors)}`);
  return value;
}

/**
 * When `after` is `before` with one run of text inserted (everything else byte-identical), that run;
 * otherwise null.
 */
export function insertedText(before: string, after: string): string | null {
  let prefix = 0;
  while (prefix < before.length && before[prefix] === after[prefix]) prefix++;
  const rest = before.slice(prefix);
  if (!after.endsWith(rest) || after.length < before.length) return null;
  return after.slice(prefix, after.length - rest.length);
}

/** Everything in the folder, sorted: backups, and any temp file a write left behind, show up here. */
export function siblings(dir: string): string[] {
  return readdirSync(dir).sort();
}
