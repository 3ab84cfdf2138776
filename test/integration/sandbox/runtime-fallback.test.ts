// crun fails on cgroup-hybrid hosts; Sandbar must fall back to runc, keep working, and say so in health.
import { CliBackend } from '../../../electron/sandbox/cli/cli-backend.js';
import { newOwner } from '../../../electron/sandbox/backend.js';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContainerRuntime } from '../../../electron/sandbox/cli/container-runtime.js';
import { Engine } from '../../../electron/sandbox/engine.js';
import { collectHealth } from '../../../electron/health/sandbox-checks.js';
import { containersOf, runtimeName, sandbox, testConfig, underGvisor } from '../helpers.js';

// The fixture stands in for podman: the Docker and gVisor projects have no crun to fall back from.
describe.skipIf(!sandbox.available || runtimeName() !== 'podman' || underGvisor)('OCI runtime fallback', () => {
  it('retries with runc after the cgroup-hybrid error, and health reports the fallback', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-crun-'));
    const fake = path.join(dir, 'podman');
    copyFileSync('test/integration/fixtures/podman-crun-hybrid.sh', fake);
    const runtime = new ContainerRuntime({ env: { ...process.env, SANDBAR_RUNTIME: fake }, platform: process.platform });
    const engine = new Engine(new CliBackend(runtime, newOwner()), testConfig({ poolSize: 0 }));
    await engine.start();
    try {
      const r = await engine.submit({ code: 'print("still works")' }).result;
      expect(r.exitReason, r.message).toBe('success');
      expect(r.stdout).toBe('still works\n');
      expect(runtime.current()?.ociRuntimeOverride).toBe('runc');
      const report = await collectHealth(new CliBackend(runtime, engine.owner), { image: sandbox.image, limits: testConfig().limits }, { probe: false });
      const note = report.checks.find((c) => c.id === 'ociRuntime');
      expect(note?.status).toBe('warn');
      expect(note?.detail).toMatch(/cgroups in hybrid mode not supported.*runc/);
      expect(report.runtime?.ociRuntime).toBe('runc');
    } finally {
      await engine.dispose();
    }
    expect(containersOf(engine.owner.instanceId)).toEqual([]);
  });
});
