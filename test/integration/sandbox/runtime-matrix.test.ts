// Each runtime under test, through the backend interface: the probe's capability matrix (with gVisor's
// documented exceptions), and pause, stats, resume, kill and wait on a real sandbox.
import { afterAll, describe, expect, it } from 'vitest';
import { CliBackend } from '../../../electron/sandbox/cli/cli-backend.js';
import { newOwner } from '../../../electron/sandbox/backend.js';
import { containerSpecOf } from '../../../electron/sandbox/engine.js';
import { collectHealth } from '../../../electron/health/sandbox-checks.js';
import { containersOf, runtimeName, sandbox, testConfig, testRuntime, underGvisor, waitFor } from '../helpers.js';

describe.skipIf(!sandbox.available)('runtime capability matrix and backend operations', () => {
  const runtime = testRuntime();
  const owner = newOwner();
  const backend = new CliBackend(runtime, owner);
  const spec = containerSpecOf(testConfig());
  afterAll(async () => {
    await backend.kill(containersOf(owner.instanceId));
  });

  it('probes every limit and reports each one\'s state; only documented exceptions are not enforced', async () => {
    const report = await collectHealth(new CliBackend(runtime, owner), spec, { probe: true });
    const caps = report.capabilities!;
    expect(caps.backend).toBe(runtimeName());
    expect(caps.isolation).toBe(underGvisor ? 'runsc' : 'runc');
    for (const key of ['memory', 'network', 'readOnlyRoot', 'capabilities'] as const) {
      expect(caps.limits[key].state, `${key}: ${caps.limits[key].detail}`).toBe('enforced');
    }
    if (underGvisor) {
      // Measured, not assumed: the probe forked past the limit, and health says so in amber with why.
      expect(caps.limits.pids.state, caps.limits.pids.detail).toBe('exception');
      expect(caps.limits.pids.detail).toMatch(/started \d+ processes under a limit of/);
      const pids = report.checks.find((c) => c.id === 'enforced.pids')!;
      expect(pids.status).toBe('warn');
      expect(pids.hint).toMatch(/gVisor/);
      expect(['enforced', 'exception']).toContain(caps.limits.seccomp.state);
    } else {
      expect(caps.limits.pids.state, caps.limits.pids.detail).toBe('enforced');
      expect(caps.limits.seccomp.state, caps.limits.seccomp.detail).toBe('enforced');
    }
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
    if (!report.runtime!.rootless) expect(report.checks.find((c) => c.id === 'runtime')!.detail).toMatch(/not rootless/);
  });

  it('pauses, samples, resumes, kills by name (twice: idempotent) and waits with an exit reason', async () => {
    const container = await backend.create(spec, { idleTimeoutSec: 60, maxLifetimeSec: 120 });
    await backend.pause(container.name);
    const [stats] = await backend.stats([container.name]);
    expect(stats?.name).toBe(container.name);
    expect(stats!.memoryBytes).toBeGreaterThan(0);
    await backend.resume(container.name);
    const waited = backend.wait(container.name);
    await backend.kill([container.name]);
    await backend.kill([container.name]);
    const exit = await waited;
    expect(['oom', 'unknown']).toContain(exit.reason);
    if (exit.reason === 'oom') expect(exit.exitCode).toBe(137);
    expect(await waitFor(() => !containersOf(owner.instanceId).includes(container.name), 5000)).toBe(true);
    container.detachClient();
  });

  it('lists what this owner made, for the reaper', async () => {
    const container = await backend.create(spec, { idleTimeoutSec: 60, maxLifetimeSec: 120 });
    const owned = await backend.listOwned();
    expect(owned.find((c) => c.name === container.name)).toMatchObject({ instanceId: owner.instanceId, pid: process.pid });
    await backend.kill([container.name]);
    container.detachClient();
  });
});
