// `npm start` where the Electron binary is missing: one line saying why and naming `npm run serve`, a
// non-zero exit, no stack trace, and nothing built first.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { locateElectron, missingElectronLine } from '../../../electron/shell/electron-binary.js';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const empty = mkdtempSync(path.join(tmpdir(), 'sandbar-no-electron-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

function npmStart(env: NodeJS.ProcessEnv) {
  const result = spawnSync('npm', ['start'], { cwd: REPO, env, encoding: 'utf8', timeout: 60_000 });
  // npm's own lines ("> sandbar@… start", "npm error …") are npm's; ours are every other line.
  const ours = `${result.stdout}\n${result.stderr}`.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('>') && !l.startsWith('npm '));
  return { ...result, ours };
}

function expectOneClearLine(run: ReturnType<typeof npmStart>, reason: RegExp) {
  expect(run.status, run.stderr).not.toBe(0);
  expect(run.status).not.toBeNull();
  expect(run.ours).toHaveLength(1);
  expect(run.ours[0]).toContain('`npm run serve`');
  expect(run.ours[0]).toMatch(reason);
  // npm echoes the script itself ("> node … && npm run build && electron ."); everything else is output.
  const all = `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => !l.startsWith('>')).join('\n');
  expect(all).not.toMatch(/^\s+at /m);
  expect(all).not.toMatch(/Error:/);
  // It stops before the build: no tsc, vite or esbuild ran.
  expect(all).not.toMatch(/npm run build|vite|built in/);
}

describe('npm start without the Electron binary', () => {
  it('says so in one line that names npm run serve, and exits 1 without building (binary made missing)', () => {
    const run = npmStart({ ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty });
    expectOneClearLine(run, new RegExp(`${empty.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/electron does not exist`));
    expect(run.status).toBe(1);
  });

  const installed = locateElectron({
    packageDir: path.join(REPO, 'node_modules', 'electron'),
    env: {},
    readFile: (f) => (existsSync(f) ? readFileSync(f, 'utf8') : null),
    exists: existsSync,
  });
  it.skipIf(installed.found)('says why on this checkout, installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1', () => {
    const { ELECTRON_OVERRIDE_DIST_PATH: _drop, ...env } = process.env;
    expectOneClearLine(npmStart(env), /node_modules\/electron has no binary \(it was installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or its download failed\)/);
  });

  it('words the line for someone who only wanted to try it', () => {
    const line = missingElectronLine('the electron package is not installed');
    expect(line).not.toContain('\n');
    expect(line).toBe('Sandbar: cannot open the desktop app: the electron package is not installed. `npm run serve` runs the same Sandbar without Electron, with the panel in your browser.');
  });
});
