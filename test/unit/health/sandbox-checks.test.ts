// The health report: runtime, image, and whether every limit holds.
import { describe, expect, it } from 'vitest';
import { buildHealthReport, enforcementHint } from '../../../electron/health/sandbox-checks.js';
import { toRuntimeReport } from '../../../electron/sandbox/cli/cli-health.js';
import type { ProbeFinding, ProbeResult } from '../../../electron/sandbox/probe.js';
import type { RuntimeInfo } from '../../../electron/sandbox/cli/container-runtime.js';
import { ENFORCED_KEYS, type EnforcedKey, type HealthReport, type RuntimeReport } from '../../../shared/health.js';

const podmanV2: RuntimeReport = {
  name: 'podman',
  path: '/usr/bin/podman',
  version: '5.2.5',
  rootless: true,
  cgroupVersion: 2,
  ociRuntime: 'crun',
  storageDriver: 'overlay',
  availableOciRuntimes: ['crun', 'runc'],
};
const rootlessV1: RuntimeReport = { ...podmanV2, cgroupVersion: 1, ociRuntime: 'runc' };
const IMAGE = { name: 'python:3.14-slim', present: true };

function probe(notEnforced: EnforcedKey[] = []): ProbeResult {
  const findings = Object.fromEntries(
    ENFORCED_KEYS.map((k) => [k, { enforced: !notEnforced.includes(k), detail: `${k} detail` }]),
  ) as Record<EnforcedKey, ProbeFinding>;
  return { ok: true, findings };
}

const check = (report: HealthReport, id: string) => report.checks.find((c) => c.id === id);

describe('buildHealthReport', () => {
  it('all good: ok, every limit enforced, every check ok, no hints', () => {
    const report = buildHealthReport({ seccomp: 'sandbar', runtime: podmanV2, image: IMAGE, probe: probe() });
    expect(report.ok).toBe(true);
    expect(report.runtime).toBe(podmanV2);
    expect(report.image).toEqual(IMAGE);
    expect(report.enforced).toEqual({ memory: true, pids: true, network: true, readOnlyRoot: true, capabilities: true, seccomp: true });
    expect(report.checks.map((c) => c.id)).toEqual([
      'runtime',
      'image',
      'enforced.memory',
      'enforced.pids',
      'enforced.network',
      'enforced.readOnlyRoot',
      'enforced.capabilities',
      'enforced.seccomp',
    ]);
    expect(check(report, 'enforced.seccomp')?.detail).toMatch(/^seccomp: Sandbar profile\./);
    for (const c of report.checks) {
      expect(c.status).toBe('ok');
      expect(c.hint).toBeUndefined();
    }
    expect(check(report, 'enforced.memory')?.detail).toBe('memory detail');
    expect(typeof report.checkedAt).toBe('number');
    // The probe ran for this report: it says when.
    expect(report.probedAt).toBe(report.checkedAt);
  });

  it('describes the runtime in the runtime check', () => {
    const detail = check(buildHealthReport({ seccomp: 'sandbar', runtime: podmanV2, image: IMAGE, probe: probe() }), 'runtime')!.detail;
    expect(detail).toContain('podman 5.2.5');
    expect(detail).toContain('/usr/bin/podman');
    expect(detail).toContain('rootless');
    expect(detail).toContain('cgroup v2');
    expect(detail).toContain('crun');
    const unknown = check(buildHealthReport({ seccomp: 'sandbar', runtime: { ...podmanV2, rootless: false, cgroupVersion: null }, image: IMAGE, probe: probe() }), 'runtime')!.detail;
    expect(unknown).toContain('rootful');
    expect(unknown).toContain('cgroup v?');
  });

  it('no runtime: not ok, a failing runtime check with a hint, nothing enforced', () => {
    const report = buildHealthReport({ seccomp: 'sandbar', runtime: null, image: { name: 'python:3.14-slim', present: false }, probe: null });
    expect(report.ok).toBe(false);
    expect(report.runtime).toBeNull();
    const runtime = check(report, 'runtime')!;
    expect(runtime.status).toBe('fail');
    expect(runtime.hint).toMatch(/Install Podman/);
    expect(runtime.detail).toBe('No container runtime found.');
    expect(Object.values(report.enforced).every((v) => v === false)).toBe(true);
    // Nothing else can be checked without a runtime.
    expect(report.checks.map((c) => c.id)).toEqual(['runtime']);
  });

  it('no runtime: the runtime error is the detail', () => {
    const report = buildHealthReport({ seccomp: 'sandbar',
      runtime: null,
      runtimeError: 'SANDBAR_RUNTIME=nerdctl names a container runtime that was not found.',
      image: { name: 'x', present: false },
      probe: null,
    });
    expect(check(report, 'runtime')!.detail).toBe('SANDBAR_RUNTIME=nerdctl names a container runtime that was not found.');
  });

  it('image missing: not ok, a failing image check with a pull hint, no probe check', () => {
    const report = buildHealthReport({ seccomp: 'sandbar', runtime: podmanV2, image: { name: 'python:3.14-slim', present: false }, probe: null });
    expect(report.ok).toBe(false);
    const image = check(report, 'image')!;
    expect(image.status).toBe('fail');
    expect(image.detail).toContain('python:3.14-slim');
    expect(image.hint).toContain('`npm run -s sandbar -- image pull`');
    expect(check(report, 'probe')).toBeUndefined();
    expect(check(report, 'runtime')!.status).toBe('ok');
  });

  it('memory not enforced on rootless cgroup v1: not ok, memory false, hint about cgroup v2', () => {
    const report = buildHealthReport({ seccomp: 'sandbar', runtime: rootlessV1, image: IMAGE, probe: probe(['memory']) });
    expect(report.ok).toBe(false);
    expect(report.enforced.memory).toBe(false);
    expect(report.enforced.pids).toBe(true);
    const memory = check(report, 'enforced.memory')!;
    expect(memory.status).toBe('fail');
    expect(memory.hint).toContain('cgroup v2');
    expect(memory.hint).toContain('Rootless podman');
    expect(check(report, 'enforced.pids')!.status).toBe('ok');
    expect(check(report, 'enforced.pids')!.hint).toBeUndefined();
  });

  it('any single limit not enforced makes the report not ok', () => {
    for (const key of ENFORCED_KEYS) {
      const report = buildHealthReport({ seccomp: 'sandbar', runtime: podmanV2, image: IMAGE, probe: probe([key]) });
      expect(report.ok, key).toBe(false);
      expect(report.enforced[key]).toBe(false);
      expect(check(report, `enforced.${key}`)!.hint).toBe(enforcementHint(key, podmanV2));
    }
  });

  it('a probe that could not run: a failing probe check with its error, nothing proven', () => {
    const report = buildHealthReport({ seccomp: 'sandbar', runtime: podmanV2, image: IMAGE, probe: { ok: false, error: 'The probe container did not start: boom' } });
    expect(report.ok).toBe(false);
    const p = check(report, 'probe')!;
    expect(p.status).toBe('fail');
    expect(p.detail).toBe('The probe container did not start: boom');
    expect(p.hint).toBeTruthy();
    expect(Object.values(report.enforced).some(Boolean)).toBe(false);
  });

  it('a probe that has not run: not ok, says so', () => {
    const report = buildHealthReport({ seccomp: 'sandbar', runtime: podmanV2, image: IMAGE, probe: null });
    expect(report.ok).toBe(false);
    expect(check(report, 'probe')!.detail).toBe('The probe has not run.');
    expect(report.probedAt).toBeNull();
  });

  it('an OCI runtime note becomes a warn check with a hint, without failing the report', () => {
    const runtime = { ...podmanV2, ociRuntime: 'runc', ociRuntimeNote: 'crun failed on this cgroup-hybrid host; using runc' };
    const report = buildHealthReport({ seccomp: 'sandbar', runtime, image: IMAGE, probe: probe() });
    const oci = check(report, 'ociRuntime')!;
    expect(oci.status).toBe('warn');
    expect(oci.detail).toBe('crun failed on this cgroup-hybrid host; using runc');
    expect(oci.hint).toBeTruthy();
    expect(report.ok).toBe(true);
  });

  it('puts a hint on every check that is not ok', () => {
    const reports = [
      buildHealthReport({ seccomp: 'sandbar', runtime: null, image: { name: 'i', present: false }, probe: null }),
      buildHealthReport({ seccomp: 'sandbar', runtime: podmanV2, image: { name: 'i', present: false }, probe: null }),
      buildHealthReport({ seccomp: 'sandbar', runtime: podmanV2, image: IMAGE, probe: null }),
      buildHealthReport({ seccomp: 'sandbar', runtime: { ...rootlessV1, ociRuntimeNote: 'n' }, image: IMAGE, probe: probe([...ENFORCED_KEYS]) }),
    ];
    for (const r of reports) {
      for (const c of r.checks) if (c.status !== 'ok') expect(c.hint, c.id).toBeTruthy();
    }
  });
});

describe('enforcementHint', () => {
  it('points rootless cgroup v1 users at cgroup v2 for memory and pids', () => {
    for (const key of ['memory', 'pids'] as const) {
      const hint = enforcementHint(key, rootlessV1);
      expect(hint).toContain('cgroup v1');
      expect(hint).toContain('cgroup v2');
      expect(hint).toContain('systemd.unified_cgroup_hierarchy=1');
    }
    expect(enforcementHint('memory', { ...rootlessV1, name: 'docker' })).toContain('Rootless docker');
  });

  it('talks about controller delegation on cgroup v2 or rootful', () => {
    expect(enforcementHint('memory', podmanV2)).toContain('Delegate=memory pids cpu');
    expect(enforcementHint('pids', podmanV2)).toContain('pids cgroup controller');
    expect(enforcementHint('memory', { ...rootlessV1, rootless: false })).not.toContain('cgroup v1 accepts');
    expect(enforcementHint('memory', null)).toContain('memory cgroup controller');
  });

  it('names the flag that did not hold for the other limits', () => {
    expect(enforcementHint('network', rootlessV1)).toContain('--network none');
    expect(enforcementHint('readOnlyRoot', podmanV2)).toContain('--read-only');
    expect(enforcementHint('capabilities', podmanV2)).toContain('--cap-drop ALL');
  });
});

describe('seccomp in health', () => {
  it('the runtime default profile is an amber warning that does not make the report unsafe', () => {
    const report = buildHealthReport({ seccomp: 'runtime-default', runtime: podmanV2, image: IMAGE, probe: probe(['seccomp']) });
    expect(report.ok).toBe(true);
    expect(report.seccomp).toBe('runtime-default');
    expect(report.enforced.seccomp).toBe(false);
    const c = check(report, 'enforced.seccomp')!;
    expect(c.status).toBe('warn');
    expect(c.detail).toContain("the runtime's default profile (weaker");
    expect(c.hint).toMatch(/Sandbar's profile/);
  });

  it('Sandbar profile requested but not in force is a failure', () => {
    const report = buildHealthReport({ seccomp: 'sandbar', runtime: podmanV2, image: IMAGE, probe: probe(['seccomp']) });
    expect(report.ok).toBe(false);
    const c = check(report, 'enforced.seccomp')!;
    expect(c.status).toBe('fail');
    expect(c.hint).toContain('seccomp');
  });
});

describe('toRuntimeReport', () => {
  const info: RuntimeInfo = {
    name: 'podman',
    path: '/usr/bin/podman',
    source: 'search',
    version: '5.2.5',
    rootless: true,
    cgroupVersion: 2,
    ociRuntime: 'crun',
    storageDriver: 'overlay',
    ulimits: { nofile: 4096, nproc: 4096 },
    availableOciRuntimes: ['crun', 'runc'],
  };

  it('keeps only the reported fields', () => {
    expect(toRuntimeReport(info)).toEqual(podmanV2);
  });

  it('carries the OCI runtime note when there is one', () => {
    expect(toRuntimeReport({ ...info, ociRuntime: 'runc', ociRuntimeOverride: 'runc', ociRuntimeNote: 'why' })).toEqual({
      ...podmanV2,
      ociRuntime: 'runc',
      ociRuntimeNote: 'why',
    });
  });
});
