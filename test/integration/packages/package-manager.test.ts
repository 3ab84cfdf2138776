// Packages end to end on a real runtime: a local PEP 503 index (wheels built here), pip from its wheel in
// helper containers with no network, a verified, read-only layer, reuse without a download.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PackageManager } from '../../../electron/packages/package-manager.js';
import { packageRuntimeOf } from '../../../electron/packages/package-runtime.js';
import { newOwner } from '../../../electron/sandbox/backend.js';
import { seccompProfileFor } from '../../../electron/sandbox/seccomp-profile.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';
import { sandbox, testRuntime } from '../helpers.js';
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
