// Temporary home folders with real config files for the discovery tests.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DiscoveryOptions } from '../../../../electron/proxy/discovery/discover.js';

export function tempHome(): string {
  return mkdtempSync(path.join(tmpdir(), 'sandbar-discovery-'));
}

/** Writes `content` (JSON unless already a string) at `home/relative`, creating folders. Returns the path. */
export function put(home: string, relative: string, content: unknown): string {
  const file = path.join(home, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

export function options(home: string, overrides: Partial<DiscoveryOptions> = {}): DiscoveryOptions {
  return { home, env: {}, platform: 'linux', settingsServers: [], importClients: [], allowSelf: false, ownPort: 7337, ...overrides };
}

export const stdio = (command: string, extra: Record<string, unknown> = {}) => ({ command, ...extra });
