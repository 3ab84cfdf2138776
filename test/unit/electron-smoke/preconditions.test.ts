// Whether `npm run test:electron` runs, skips in one line, or fails: the binary lookup, the plan, and the
// real script started with no usable Electron binary (made so with ELECTRON_OVERRIDE_DIST_PATH, which works
// whether or not this machine has the binary).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { locateElectron, planSmoke, XVFB_ARGS, type BinaryLookup } from '../../electron/preconditions.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const pkg = '/repo/node_modules/electron';
const files = (entries: Record<string, string>) => ({ readFile: (f: string) => entries[f] ?? null, exists: (f: string) => f in entries });

describe('locateElectron', () => {
  it('finds dist/<path.txt> like the electron package does', () => {
    const fs = files({ [path.join(pkg, 'path.txt')]: 'electron', [path.join(pkg, 'dist', 'electron')]: '' });
    expect(locateElectron({ packageDir: pkg, env: {}, ...fs })).toEqual({ found: true, path: path.join(pkg, 'dist', 'electron') });
  });

  it('says why when the package is missing, was installed without its binary, or the binary is gone', () => {
    expect(locateElectron({ packageDir: null, env: {}, ...files({}) })).toEqual({ found: false, reason: 'the electron package is not installed' });
    expect(locateElectron({ packageDir: pkg, env: {}, ...files({}) })).toMatchObject({ found: false, reason: expect.stringMatching(/ELECTRON_SKIP_BINARY_DOWNLOAD/) });
    expect(locateElectron({ packageDir: pkg, env: {}, ...files({ [path.join(pkg, 'path.txt')]: 'electron' }) })).toMatchObject({ found: false, reason: expect.stringMatching(/does not exist/) });
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH', () => {
    const fs = files({ [path.join('/opt/electron', 'electron')]: '' });
    expect(locateElectron({ packageDir: pkg, env: { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' }, ...fs })).toEqual({ found: true, path: path.join('/opt/electron', 'electron') });
  });
});

describe('planSmoke', () => {
  const found: BinaryLookup = { found: true, path: '/e/electron' };
  const missing: BinaryLookup = { found: false, reason: 'no binary here' };
  const self = { command: '/usr/bin/node', args: ['--import', 'tsx', 'test/electron/smoke.ts'] };
  const plan = (binary: BinaryLookup, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = 'linux', hasXvfbRun = true) => planSmoke({ binary, env, platform, self, hasXvfbRun });

  it('without a binary: one line and exit 0, or exit 1 when SANDBAR_REQUIRE_ELECTRON is set', () => {
    expect(plan(missing, {})).toEqual({ action: 'stop', exitCode: 0, line: 'test:electron: skipped, no Electron binary: no binary here' });
    expect(plan(missing, { SANDBAR_REQUIRE_ELECTRON: '1' })).toMatchObject({ action: 'stop', exitCode: 1, line: expect.stringMatching(/^test:electron: FAILED/) });
    // CI=true alone (this project's own CI, which cannot download Electron) is not a requirement.
    expect(plan(missing, { CI: 'true' })).toMatchObject({ exitCode: 0 });
    expect(plan(missing, { SANDBAR_REQUIRE_ELECTRON: '0' })).toMatchObject({ exitCode: 0 });
  });

  it('runs directly where there is a display (Linux with DISPLAY, macOS, Windows)', () => {
    expect(plan(found, { DISPLAY: ':0' })).toEqual({ action: 'run', electron: '/e/electron' });
    expect(plan(found, { WAYLAND_DISPLAY: 'wayland-0' })).toEqual({ action: 'run', electron: '/e/electron' });
    expect(plan(found, {}, 'darwin')).toEqual({ action: 'run', electron: '/e/electron' });
    expect(plan(found, {}, 'win32')).toEqual({ action: 'run', electron: '/e/electron' });
  });

  it('re-runs itself under xvfb-run on a headless Linux, and says so when xvfb-run is missing', () => {
    expect(plan(found, {})).toEqual({ action: 'rerun', command: 'xvfb-run', args: [...XVFB_ARGS, self.command, ...self.args] });
    expect(plan(found, {}, 'linux', false)).toMatchObject({ action: 'stop', exitCode: 0, line: expect.stringMatching(/xvfb/) });
    expect(plan(found, { SANDBAR_REQUIRE_ELECTRON: 'true' }, 'linux', false)).toMatchObject({ action: 'stop', exitCode: 1 });
  });
});

describe('npm run test:electron without an Electron binary', () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'sandbar-no-electron-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));
  const run = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'test/electron/smoke.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty, SANDBAR_REQUIRE_ELECTRON: '', ...env },
      timeout: 60_000,
    });

  it('says so in one line and exits 0', () => {
    const result = run({});
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^test:electron: skipped, no Electron binary: .* does not exist$/)]);
    expect(result.status).toBe(0);
  });

  it('fails when the workflow requires Electron', () => {
    const result = run({ SANDBAR_REQUIRE_ELECTRON: '1' });
    expect(result.stdout).toMatch(/^test:electron: FAILED, no Electron binary/);
    expect(result.status).toBe(1);
  });
});
