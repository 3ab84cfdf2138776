// One-shot commands reuse a fresh `info` answer for the same binary, and ask again for anything else.
import { chmodSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContainerRuntime } from '../../../../electron/sandbox/cli/container-runtime.js';
import { fileFactsCache, RUNTIME_FACTS_FILE, RUNTIME_FACTS_TTL_MS } from '../../../../electron/sandbox/cli/runtime-facts-cache.js';

const INFO = {
  host: { cgroupVersion: 'v2', ociRuntime: { name: 'crun' }, security: { rootless: true } },
  store: { graphDriverName: 'overlay' },
  version: { Version: '5.4.0' },
};

/** A fake podman that counts its `info` calls in a file and reports `version`. */
function fakePodman(version = '5.4.0') {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-facts-'));
  const binary = path.join(dir, 'podman');
  const calls = path.join(dir, 'calls');
  writeFileSync(calls, '');
  writeFileSync(binary, `#!/bin/sh\n[ "$1" = info ] && echo x >> '${calls}' && echo '${JSON.stringify({ ...INFO, version: { Version: version } })}'\n`);
  chmodSync(binary, 0o755);
  return { dir, binary, infoCalls: () => readFileSync(calls, 'utf8').split('\n').filter(Boolean).length };
}

const runtimeWith = (binary: string, home: string, now = Date.now) =>
  new ContainerRuntime({ env: { SANDBAR_RUNTIME: binary }, platform: 'linux', factsCache: fileFactsCache(home, now) });

describe('runtime facts cache', () => {
  it('answers a second command from the cache: no second `info`', async () => {
    const fake = fakePodman();
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-home-'));
    expect((await runtimeWith(fake.binary, home).resolve()).version).toBe('5.4.0');
    expect((await runtimeWith(fake.binary, home).resolve()).version).toBe('5.4.0');
    expect(fake.infoCalls()).toBe(1);
    expect(statSync(path.join(home, RUNTIME_FACTS_FILE)).mode & 0o777).toBe(0o600);
  });

  it('asks again once the answer is older than the TTL', async () => {
    const fake = fakePodman();
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-home-'));
    const start = Date.now();
    await runtimeWith(fake.binary, home, () => start).resolve();
    await runtimeWith(fake.binary, home, () => start + RUNTIME_FACTS_TTL_MS + 1).resolve();
    expect(fake.infoCalls()).toBe(2);
  });

  it('asks again when the binary changed (an upgrade)', async () => {
    const fake = fakePodman();
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-home-'));
    await runtimeWith(fake.binary, home).resolve();
    const later = new Date(Date.now() + 60_000);
    utimesSync(fake.binary, later, later);
    await runtimeWith(fake.binary, home).resolve();
    expect(fake.infoCalls()).toBe(2);
  });

  it('ignores a corrupt cache file and replaces it', async () => {
    const fake = fakePodman();
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-home-'));
    writeFileSync(path.join(home, RUNTIME_FACTS_FILE), '{not json');
    expect((await runtimeWith(fake.binary, home).resolve()).rootless).toBe(true);
    expect(JSON.parse(readFileSync(path.join(home, RUNTIME_FACTS_FILE), 'utf8')).info.version).toBe('5.4.0');
  });

  it('never reuses an answer about another binary', async () => {
    const a = fakePodman('5.4.0');
    const b = fakePodman('4.9.0');
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-home-'));
    await runtimeWith(a.binary, home).resolve();
    expect((await runtimeWith(b.binary, home).resolve()).version).toBe('4.9.0');
    expect(b.infoCalls()).toBe(1);
  });
});
