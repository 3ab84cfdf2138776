// Settings precedence (flag > environment > file > default), errors that name their source, and a corrupt
// file moved aside without losing it.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { containerSpecOf } from '../../../electron/sandbox/engine.js';
import { engineConfigOf } from '../../../electron/sandbox/engine-config.js';
import { loadSettings } from '../../../electron/settings/load-settings.js';
import { sandbarHome } from '../../../electron/settings/paths.js';
import { flagLayer } from '../../../electron/settings/settings-layers.js';
import { AppError } from '../../../shared/errors.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';

function home(settings?: unknown, raw?: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-settings-'));
  if (raw !== undefined) writeFileSync(path.join(dir, 'settings.json'), raw);
  else if (settings !== undefined) writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings));
  return dir;
}

const load = (dir: string, env: Record<string, string> = {}, port?: number) =>
  loadSettings({ env: { SANDBAR_HOME: dir, ...env }, ...(port !== undefined ? { flags: flagLayer({ '--port': { path: 'httpPort', value: port } }) } : {}) });

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected a configuration error');
}

describe('loadSettings', () => {
  it('uses the defaults without a settings file', () => {
    const dir = home();
    expect(load(dir)).toEqual({ home: dir, settings: DEFAULT_SETTINGS, warnings: [] });
  });

  it('applies flag > environment > file > default', () => {
    const dir = home({ httpPort: 9000, image: 'file:1', limits: { memory: '1g', pids: 200 }, outputMode: 'toon' });
    const fromFile = load(dir).settings;
    expect(fromFile).toMatchObject({ httpPort: 9000, image: 'file:1', outputMode: 'toon', limits: { memory: '1g', pids: 200, timeoutSec: 30 } });
    const withEnv = load(dir, { MCP_BRIDGE_MEMORY: '2g', SANDBAR_IMAGE: 'env:1', MCP_BRIDGE_OUTPUT_MODE: 'compact' }).settings;
    expect(withEnv).toMatchObject({ httpPort: 9000, image: 'env:1', outputMode: 'compact', limits: { memory: '2g', pids: 200 } });
    expect(load(dir, {}, 0).settings.httpPort).toBe(0);
  });

  it('names the file and the key of an invalid value', () => {
    const err = failure(() => load(home({ limits: { memory: 'huge' } })));
    expect(err.code).toBe('invalid_config');
    expect(err.message).toBe('Invalid settings.json: limits.memory="huge": must be a size such as 512m or 1g');
    expect(failure(() => load(home({ poolSize: -1 }))).message).toContain('settings.json: poolSize');
    expect(failure(() => load(home({ outputMode: 'yaml' }))).message).toContain('settings.json: outputMode');
  });

  it('names the environment variable when the environment set the bad value, even over a good file', () => {
    expect(failure(() => load(home({ limits: { pids: 64 } }), { MCP_BRIDGE_PIDS: '2' })).message).toBe('Invalid MCP_BRIDGE_PIDS="2": must be at least 16');
    expect(failure(() => load(home(), { MCP_BRIDGE_OUTPUT_MODE: 'xml' })).message).toContain('MCP_BRIDGE_OUTPUT_MODE');
  });

  it('names the flag', () => {
    expect(failure(() => load(home(), {}, 70_000)).message).toMatch(/^Invalid --port 70000: /);
  });

  it('accepts the reference output modes: compact, toon, and json as toon', () => {
    expect(load(home(), { MCP_BRIDGE_OUTPUT_MODE: 'TOON' }).settings.outputMode).toBe('toon');
    expect(load(home(), { MCP_BRIDGE_OUTPUT_MODE: 'json' }).settings.outputMode).toBe('toon');
  });

  it('moves a corrupt file aside, keeps its bytes, uses the defaults and says so', () => {
    const dir = home(undefined, '{"limits": {"memory": "1g"');
    const loaded = load(dir);
    expect(loaded.settings).toEqual(DEFAULT_SETTINGS);
    expect(existsSync(path.join(dir, 'settings.json'))).toBe(false);
    const aside = readdirSync(dir).filter((f) => f.startsWith('settings.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(dir, aside[0]!), 'utf8')).toBe('{"limits": {"memory": "1g"');
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toContain(aside[0]);
  });

  it('carries the seccomp fallback and an OCI runtime choice from the file into the engine', () => {
    const settings = load(home({ seccomp: 'runtime-default', ociRuntime: 'runsc' })).settings;
    const spec = containerSpecOf(engineConfigOf(settings));
    expect(spec.seccompProfile).toBeUndefined();
    expect(spec.ociRuntime).toBe('runsc');
    expect(containerSpecOf(engineConfigOf(load(home()).settings)).seccompProfile).toMatch(/sandbar-seccomp\.json$/);
    expect(failure(() => load(home({ seccomp: 'off' }))).message).toContain('settings.json: seccomp');
  });

  it('treats a JSON array as corrupt too', () => {
    expect(load(home(undefined, '[1, 2]')).warnings[0]).toMatch(/moved to .*settings\.json\.corrupt-/);
  });
});

describe('sandbarHome', () => {
  it('honours SANDBAR_HOME, else the platform app-data folder', () => {
    expect(sandbarHome({ SANDBAR_HOME: '/x/y' }, 'linux', '/home/u')).toBe('/x/y');
    expect(sandbarHome({}, 'linux', '/home/u')).toBe('/home/u/.config/sandbar');
    expect(sandbarHome({ XDG_CONFIG_HOME: '/cfg' }, 'linux', '/home/u')).toBe('/cfg/sandbar');
    expect(sandbarHome({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/Sandbar');
  });
});
