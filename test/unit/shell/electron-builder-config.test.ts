// electron-builder.yml: targets, identity, fuses, what goes in (the agent, the seccomp profile unpacked)
// and what stays out (better-sqlite3: no native module in the app). Also validated against the schema.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
// js-yaml comes with electron-builder; typed here so no @types package is needed.
const { load } = require('js-yaml') as { load(text: string): unknown };
const file = fileURLToPath(new URL('../../../electron-builder.yml', import.meta.url));

interface BuilderConfig {
  appId: string;
  productName: string;
  directories: { output: string; buildResources: string };
  files: string[];
  asar?: boolean;
  asarUnpack: string[];
  npmRebuild: boolean;
  buildDependenciesFromSource: boolean;
  electronFuses: Record<string, boolean>;
  linux: { target: string[] };
  mac: { target: string[] };
  win: { target: string[] };
}

const config = load(readFileSync(file, 'utf8')) as BuilderConfig;

/** A tiny glob check: does `pattern` (with ** and *) cover `path`? */
function covers(pattern: string, path: string): boolean {
  const rx = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*/g, '<<any>>')
    .replace(/\*/g, '[^/]*')
    .replace(/<<any>>/g, '.*');
  return new RegExp(`^${rx}$`).test(path);
}
const included = (path: string) => config.files.some((p) => !p.startsWith('!') && covers(p, path)) && !config.files.some((p) => p.startsWith('!') && covers(p.slice(1), path));

describe('electron-builder.yml', () => {
  it('names the app', () => {
    expect(config.appId).toBe('dev.sandbar.app');
    expect(config.productName).toBe('Sandbar');
    expect(config.directories).toEqual({ output: 'out', buildResources: 'electron/assets' });
  });

  it('builds AppImage + deb, dmg and nsis', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('sets the fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('rebuilds nothing native', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.buildDependenciesFromSource).toBe(false);
  });

  it('ships main, preload, shared, the panel, the icons and the Python agent; not maps, tests or better-sqlite3', () => {
    for (const path of [
      'package.json',
      'dist/electron/main.js',
      'dist/electron/preload.cjs',
      'dist/shared/contract.js',
      'dist/renderer/index.html',
      'dist/electron/sandbox/agent/agent.py',
      'dist/electron/sandbox/agent/agent_channel.py',
      'dist/electron/sandbox/agent/agent_rpc.py',
      'dist/electron/sandbox/agent/agent_checkpoints.py',
      'dist/electron/sandbox/agent/mcp_runtime.py',
      'dist/electron/sandbox/agent/probe.py',
      'dist/electron/sandbox/seccomp/sandbar-seccomp.json',
      'electron/assets/tray-ready.png',
      'electron/assets/tray-broken@2x.png',
    ]) {
      expect(included(path), path).toBe(true);
    }
    for (const path of ['dist/electron/main.js.map', 'node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'dist/electron/preload.js']) {
      expect(included(path), path).toBe(false);
    }
    expect(config.files).toContain('!node_modules/better-sqlite3/**');
  });

  it('unpacks the seccomp profile from the asar (podman reads it by path)', () => {
    expect(config.asar ?? true).toBe(true);
    expect(config.asarUnpack.some((p) => covers(p, 'dist/electron/sandbox/seccomp/sandbar-seccomp.json'))).toBe(true);
  });

  it('passes electron-builder\'s own configuration schema', async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration(config: unknown, logger: unknown): Promise<void>;
    };
    const logger = { add() {}, isEmpty: () => true, toString: () => '' };
    await expect(validateConfiguration(config, logger)).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, electronFuses: { ...config.electronFuses, runAsNod: false } }, logger)).rejects.toThrow();
  });
});
