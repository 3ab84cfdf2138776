// Packages end to end on a real runtime: a local PEP 503 index (wheels built here), pip from its wheel in
// helper containers with no network, a verified, read-only layer, reuse without a download; and the
// helpers' bounds: two at once, a shared build one cancel leaves alone, the step's deadline, the lifetime.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PackageManager } from '../../../electron/packages/package-manager.js';
import { packageRuntimeOf } from '../../../electron/packages/package-runtime.js';
import { pipSpec } from '../../../electron/packages/pip-container.js';
import { newOwner } from '../../../electron/sandbox/backend.js';
import { seccompProfileFor } from '../../../electron/sandbox/seccomp-profile.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';
import { runtimeBinary, sandbox, testRuntime, waitFor } from '../helpers.js';
import { buildWheel, FixtureIndex, hostPipWheel } from './package-fixtures.js';

const pip = hostPipWheel();

describe.skipIf(!sandbox.available || !pip)('package manager on a real runtime', () => {
  const index = new FixtureIndex();
  const runtime = testRuntime();
  const owner = newOwner();
  let manager: PackageManager;
  let cap = 200 * 1024 * 1024;

  beforeAll(async () => {
    index.add('pip', pip!);
    index.add('tinydep', await buildWheel('tinydep', '1.0', { 'tinydep.py': 'VALUE = 41\n' }));
    index.add('tinypkg', await buildWheel('tinypkg', '2.0', { 'tinypkg.py': 'import tinydep\ndef answer():\n    return tinydep.VALUE + 1\n' }, ['tinydep']));
    // Only a wheel for a Python that does not exist: nothing fits the image.
    const foreign = await buildWheel('foreign', '1.0', { 'foreign.py': 'X = 1\n' });
    index.add('foreign', { ...foreign, filename: 'foreign-1.0-cp399-cp399-manylinux_2_17_x86_64.whl' });
    index.add('bulky', await buildWheel('bulky', '1.0', { 'bulky.py': `DATA = ${JSON.stringify('x'.repeat(300_000))}\n` }));
    await index.start();
    const seccompProfile = seccompProfileFor('sandbar');
    const hardening = { limits: DEFAULT_LIMITS, owner, ...(seccompProfile ? { seccompProfile } : {}), ...(sandbox.runtime?.ociRuntime ? { ociRuntime: sandbox.runtime.ociRuntime } : {}) };
    manager = new PackageManager({
      root: path.join(mkdtempSync(path.join(tmpdir(), 'sandbar-pkg-')), 'packages'),
      indexUrl: () => index.url,
      capBytes: () => cap,
      runtime: () => packageRuntimeOf(runtime, hardening),
    });
  }, 60_000);
  afterAll(async () => {
    await index.stop();
  });

  it('resolves the dependency, installs both into one layer, and reuses it with no new download', async () => {
    const first = await manager.prepare(['tinypkg'], sandbox.image);
    expect(first.reused).toBe(false);
    expect(first.path).toMatch(/^\/opt\/sandbar\/layers\/[0-9a-f]{32}$/);
    expect(index.downloads().sort()).toEqual([`/files/${pip!.filename}`, '/files/tinydep-1.0-py3-none-any.whl', '/files/tinypkg-2.0-py3-none-any.whl']);
    const layer = manager.store.layerPath(first.key!);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(layer)).toEqual(expect.arrayContaining(['tinypkg.py', 'tinydep.py']));

    const before = index.requests.length;
    const second = await manager.prepare(['tinypkg'], sandbox.image);
    expect(second).toMatchObject({ reused: true, key: first.key });
    expect(index.requests.length).toBe(before);
  }, 180_000);

  it('says when no wheel fits the image\'s Python and platform', async () => {
    await expect(manager.prepare(['foreign'], sandbox.image)).rejects.toThrow(/no wheel of foreign fits this image's Python and platform/);
  }, 180_000);

  it('refuses a set larger than the whole cache, and keeps no layer of it', async () => {
    cap = 200 * 1024;
    try {
      await expect(manager.prepare(['bulky'], sandbox.image)).rejects.toThrow(/The package cache is full: this set needs .* and packageCacheMB allows 0\.2 MB/);
      const { readdirSync } = await import('node:fs');
      const layers = readdirSync(manager.store.layersDir);
      for (const key of layers) expect(readdirSync(manager.store.layerPath(key))).not.toContain('bulky.py');
    } finally {
      cap = 200 * 1024 * 1024;
    }
  }, 180_000);
});

describe.skipIf(!sandbox.available || !pip)('package helpers are bounded', () => {
  const index = new FixtureIndex();
  const runtime = testRuntime();
  const owner = newOwner();
  const seccompProfile = seccompProfileFor('sandbar');
  const hardening = { limits: DEFAULT_LIMITS, owner, ...(seccompProfile ? { seccompProfile } : {}), ...(sandbox.runtime?.ociRuntime ? { ociRuntime: sandbox.runtime.ociRuntime } : {}) };
  const managerWith = (deadlineSec?: number) =>
    new PackageManager({
      root: path.join(mkdtempSync(path.join(tmpdir(), 'sandbar-pkg-')), 'packages'),
      indexUrl: () => index.url,
      capBytes: () => 200 * 1024 * 1024,
      runtime: () => packageRuntimeOf(runtime, hardening),
      ...(deadlineSec ? { deadlineSec } : {}),
    });
  /** This instance's helper containers now (asynchronously, so sampling never stalls the builds). */
  const helpersNow = async () => {
    const { stdout } = await promisify(execFile)(runtimeBinary(), ['ps', '--filter', `label=sandbar.instance=${owner.instanceId}`, '--format', '{{.Names}}']);
    return stdout.split('\n').filter((n) => n.startsWith('sandbar-pkg-'));
  };

  beforeAll(async () => {
    index.add('pip', pip!);
    for (const name of ['setone', 'settwo', 'setthree']) index.add(name, await buildWheel(name, '1.0', { [`${name}.py`]: `NAME = '${name}'\n` }));
    index.slowPages.set('slowpkg', 60_000);
    await index.start();
  }, 60_000);
  afterAll(async () => {
    await index.stop();
  });

  it('runs at most two helpers at once, and one caller cancelling leaves the build the other waits on', async () => {
    const manager = managerWith();
    let maxHelpers = 0;
    let maxQueued = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        maxHelpers = Math.max(maxHelpers, (await helpersNow()).length, manager.helpers.inUse);
        maxQueued = Math.max(maxQueued, manager.helpers.queued);
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    const leaving = new AbortController();
    const cancelled = manager.prepare(['setone'], sandbox.image, leaving.signal);
    const staying = manager.prepare(['setone'], sandbox.image, new AbortController().signal);
    const others = [manager.prepare(['settwo'], sandbox.image), manager.prepare(['setthree'], sandbox.image)];
    setTimeout(() => leaving.abort(), 300);
    await expect(cancelled).rejects.toThrow('Preparing the packages was cancelled');
    const [kept, ...rest] = await Promise.all([staying, ...others]);
    sampling = false;
    await sampler;
    expect(kept!.key).toMatch(/^[0-9a-f]{32}$/);
    expect(rest.map((r) => r.key)).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/), expect.stringMatching(/^[0-9a-f]{32}$/)]);
    expect(maxHelpers).toBeLessThanOrEqual(2);
    expect(maxHelpers).toBeGreaterThan(0);
    // Three builds wanted helpers at once: the third waited its turn.
    expect(maxQueued).toBeGreaterThan(0);
    expect(index.downloads().filter((d) => d.includes('setone'))).toHaveLength(1);
    // Installed by the host user, modes masked: no setuid/setgid/sticky bit, nothing group- or world-writable.
    for (const entry of readdirSync(manager.store.layerPath(kept!.key!), { recursive: true, withFileTypes: true })) {
      const st = statSync(path.join(entry.parentPath, entry.name));
      expect({ name: entry.name, uid: st.uid, bad: st.mode & 0o7022 }).toEqual({ name: entry.name, uid: process.getuid!(), bad: 0 });
    }
  }, 240_000);

  it('ends the package step at its deadline with a clear error, and the helper goes', async () => {
    const manager = managerWith(3);
    await expect(manager.prepare(['slowpkg'], sandbox.image)).rejects.toThrow("Preparing the packages took longer than 3 s (the package step's deadline)");
    expect(await waitFor(async () => (await helpersNow()).length === 0, 20_000, 250)).toBe(true);
  }, 120_000);

  it('a helper ends by itself at its lifetime, with no word from the host', async () => {
    const helperRuntime = await packageRuntimeOf(runtime, hardening);
    const base = helperRuntime.baseSpec(sandbox.image);
    const spec = pipSpec({ ...base, name: `sandbar-pkg-lifetime-${owner.instanceId}`, lifetime: {}, env: { HOME: '/tmp' } }, 2);
    // No --timeout here: the helper's own timer must end it (Docker has no runtime-side lifetime).
    const child = spawn(helperRuntime.path, helperRuntime.argsOf(spec), { stdio: ['pipe', 'ignore', 'ignore'] });
    const started = Date.now();
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.end();
    expect(code).toBe(124);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
