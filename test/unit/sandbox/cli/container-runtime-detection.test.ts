// Detection is lazy and never caches a miss: a runtime installed while Sandbar runs is found next time.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContainerRuntime } from '../../../../electron/sandbox/cli/container-runtime.js';
import { AppError } from '../../../../shared/errors.js';

const INFO = {
  host: { cgroupVersion: 'v2', ociRuntime: { name: 'crun' }, security: { rootless: true } },
  store: { graphDriverName: 'overlay' },
  version: { Version: '5.4.0' },
};

describe('ContainerRuntime detection', () => {
  it('finds a runtime installed after a failed look-up, without a restart', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-later-'));
    const binary = path.join(dir, 'podman');
    const runtime = new ContainerRuntime({ env: { PATH: dir, SANDBAR_RUNTIME: binary }, platform: 'linux' });

    await expect(runtime.resolve()).rejects.toMatchObject({ code: 'runtime_not_found' });
    expect(runtime.current()).toBeUndefined();

    writeFileSync(binary, `#!/bin/sh\n[ "$1" = info ] && echo '${JSON.stringify(INFO)}'\n`);
    chmodSync(binary, 0o755);
    const info = await runtime.resolve();
    expect(info).toMatchObject({ name: 'podman', path: binary, version: '5.4.0', rootless: true, cgroupVersion: 2, ociRuntime: 'crun', storageDriver: 'overlay' });
  });

  it('explains a runtime that is installed but broken', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-broken-'));
    const binary = path.join(dir, 'docker');
    writeFileSync(binary, '#!/bin/sh\necho "Cannot connect to the Docker daemon" >&2\nexit 1\n');
    chmodSync(binary, 0o755);
    const runtime = new ContainerRuntime({ env: { SANDBAR_RUNTIME: binary }, platform: 'linux' });
    const err = await runtime.resolve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('runtime_failed');
    expect((err as AppError).message).toBe('docker is installed but not working: Cannot connect to the Docker daemon');
  });
});
