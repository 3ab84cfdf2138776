// No user string becomes a runtime flag. A logging wrapper stands in for podman (and then runs the real
// one), so the test sees every argv Sandbar builds: `--privileged` as an image is refused before the
// runtime is called, and every run passes its image after `--`.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeBinary, sandbox } from '../helpers.js';
import { baseEnv, killAllChildren, REPO_ROOT, SANDBAR_BIN } from '../mcp/real-clients-helpers.js';
import { newHome, startServed, textOf, type Served } from './serve-helpers.js';

/** One line per call: the arguments joined by a unit separator, newlines escaped. */
function loggingRuntime(real: string): { bin: string; log: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-argv-'));
  const bin = path.join(dir, path.basename(real));
  const log = path.join(dir, 'argv.log');
  writeFileSync(log, '');
  writeFileSync(bin, `#!/usr/bin/env bash\n{ for a in "$@"; do printf '%s\\x1f' "\${a//$'\\n'/\\\\n}"; done; echo; } >> ${JSON.stringify(log)}\nexec ${JSON.stringify(real)} "$@"\n`);
  chmodSync(bin, 0o755);
  return { bin, log };
}

const calls = (log: string) => readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => line.split('\x1f').slice(0, -1));

describe.skipIf(!sandbox.available)('image references never reach the runtime as flags', () => {
  const real = spawnSync('sh', ['-c', `command -v ${runtimeBinary()}`], { encoding: 'utf8' }).stdout.trim();
  const runtime = loggingRuntime(real);
  let s: Served;

  beforeAll(async () => {
    s = await startServed({ env: { SANDBAR_RUNTIME: runtime.bin } });
  });

  afterAll(async () => {
    await s?.stop();
    killAllChildren();
  });

  it('passes the image after `--` on every run', async () => {
    const client = await s.mcp();
    expect(textOf(await client.callTool({ name: 'run_python', arguments: { code: 'print("ran")' } }))).toContain('ran');
    const runs = calls(runtime.log).filter((argv) => argv.includes('run'));
    expect(runs.length).toBeGreaterThan(0);
    for (const argv of runs) {
      const dashes = argv.indexOf('--');
      expect(dashes).toBeGreaterThan(0);
      expect(argv[dashes + 1]).toBe(sandbox.image);
      expect(argv[dashes + 2]).toBe('python3');
    }
  });

  it('refuses `--privileged` as an image in settings and in image.pull; the runtime never sees it', async () => {
    const before = readFileSync(path.join(s.home, 'settings.json'), 'utf8');
    const update = await s.api(s.panelToken(), 'settings.update', { patch: { image: '--privileged' } });
    expect(update.body).toMatchObject({ ok: false, error: { code: 'invalid_config', fields: { image: expect.stringContaining('not a flag') } } });
    const pull = await s.api(s.panelToken(), 'image.pull', { image: '--privileged' });
    expect(pull.body).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const spaced = await s.api(s.panelToken(), 'image.pull', { image: 'python:3 --privileged' });
    expect(spaced.body).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(readFileSync(path.join(s.home, 'settings.json'), 'utf8')).toBe(before);
    expect(calls(runtime.log).flat()).not.toContain('--privileged');
  });

  it('refuses SANDBAR_IMAGE=--privileged at start with a clear error, before any runtime call', () => {
    const { home, userHome } = newHome();
    const lines = calls(runtime.log).length;
    const result = spawnSync(process.execPath, [SANDBAR_BIN, 'run', '-'], {
      cwd: REPO_ROOT,
      input: 'print(1)',
      env: baseEnv({ SANDBAR_HOME: home, HOME: userHome, SANDBAR_IMAGE: '--privileged', SANDBAR_RUNTIME: runtime.bin }),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('SANDBAR_IMAGE');
    expect(result.stderr).toContain('not a flag');
    expect(calls(runtime.log).length).toBe(lines);
  });
});
