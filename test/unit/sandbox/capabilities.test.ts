// The capability matrix: what the probe proved, with the exceptions each backend declares (its features)
// and gVisor's marked amber.
import { describe, expect, it } from 'vitest';
import { buildCapabilities as build, knownException } from '../../../electron/sandbox/capabilities.js';
import type { BackendKind } from '../../../electron/sandbox/backend.js';
import { cliFeatures, rootlessNote } from '../../../electron/sandbox/cli/cli-health.js';
import { KUBERNETES_FEATURES } from '../../../electron/sandbox/kubernetes/kubernetes-health.js';
import type { Isolation } from '../../../electron/sandbox/sandbox-spec.js';
import { buildHealthReport } from '../../../electron/health/sandbox-checks.js';
import type { ProbeFinding, ProbeResult } from '../../../electron/sandbox/probe.js';
import { ENFORCED_KEYS, type EnforcedKey, type RuntimeReport } from '../../../shared/health.js';

function probe(notEnforced: EnforcedKey[] = []): ProbeResult {
  const findings = Object.fromEntries(ENFORCED_KEYS.map((k) => [k, { enforced: !notEnforced.includes(k), detail: `${k} detail` }])) as Record<EnforcedKey, ProbeFinding>;
  return { ok: true, findings };
}

/** Each backend's own declaration, as the backend passes it. */
const featuresOf = (backend: BackendKind) => (backend === 'kubernetes' ? KUBERNETES_FEATURES : cliFeatures(backend));

function buildCapabilities(input: { backend: BackendKind; isolation: Isolation; rootless: boolean; probe: ProbeResult | null }) {
  return build({ ...input, features: featuresOf(input.backend), ...(input.backend === 'kubernetes' ? {} : { rootlessNote: rootlessNote(input.backend) }) });
}

const podmanRoot: RuntimeReport = {
  name: 'podman', path: '/usr/bin/podman', version: '4.3.1', rootless: false, cgroupVersion: 1, ociRuntime: 'runsc', storageDriver: 'overlay', availableOciRuntimes: ['runc', 'runsc'],
};
const IMAGE = { name: 'localhost/sandbar-python:test', present: true };

describe('buildCapabilities', () => {
  it('marks every proven limit enforced', () => {
    const caps = buildCapabilities({ backend: 'podman', isolation: 'runc', rootless: true, probe: probe() });
    expect(Object.values(caps.limits).map((l) => l.state)).toEqual(ENFORCED_KEYS.map(() => 'enforced'));
    expect(caps.rootlessNote).toBeUndefined();
  });

  it('under gVisor, unenforced pids is an exception with its reason, not a failure', () => {
    const caps = buildCapabilities({ backend: 'podman', isolation: 'runsc', rootless: false, probe: probe(['pids']) });
    expect(caps.limits.pids.state).toBe('exception');
    expect(caps.limits.pids.reason).toMatch(/not host pids/);
    expect(caps.limits.memory.state).toBe('enforced');
  });

  it('under runc, unenforced pids is a failure', () => {
    expect(buildCapabilities({ backend: 'podman', isolation: 'runc', rootless: true, probe: probe(['pids']) }).limits.pids.state).toBe('failed');
  });

  it('never excuses memory, network, read-only root or capabilities on any backend', () => {
    for (const backend of ['podman', 'docker', 'kubernetes'] as const) {
      for (const isolation of ['runc', 'runsc'] as const) {
        for (const key of ['memory', 'network', 'readOnlyRoot', 'capabilities'] as const) expect(knownException(key, featuresOf(backend), isolation)).toBeUndefined();
      }
    }
    expect(knownException('pids', KUBERNETES_FEATURES, 'runc')).toMatch(/podPidsLimit/);
    expect(knownException('pids', cliFeatures('podman'), 'runc')).toBeUndefined();
  });

  it('says when Docker runs as root, and which backends have a lifetime backstop', () => {
    const docker = buildCapabilities({ backend: 'docker', isolation: 'runc', rootless: false, probe: null });
    expect(docker.rootlessNote).toMatch(/Docker runs as root here \(not rootless\)/);
    expect(docker.lifetimeBackstop).toBe(false);
    expect(docker.limits.memory.state).toBe('unknown');
    expect(buildCapabilities({ backend: 'kubernetes', isolation: 'runc', rootless: true, probe: null }).lifetimeBackstop).toBe(true);
  });

  it('says per isolation tier whether sessions keep checkpoints: runc yes, gVisor and Kubernetes no, in words', () => {
    for (const backend of ['podman', 'docker'] as const) {
      expect(buildCapabilities({ backend, isolation: 'runc', rootless: true, probe: null }).checkpoints).toBe(true);
      expect(buildCapabilities({ backend, isolation: 'runsc', rootless: true, probe: null }).checkpoints).toMatch(/^under gVisor .*PR_SET_CHILD_SUBREAPER/);
    }
    expect(buildCapabilities({ backend: 'kubernetes', isolation: 'runc', rootless: true, probe: null }).checkpoints).toMatch(/cannot pause a pod/);
  });

  it('Health says in an amber row that sessions keep no checkpoints under gVisor, and nothing under runc or Kubernetes', () => {
    const p = probe(['pids']);
    const gvisor = buildHealthReport({ seccomp: 'sandbar', runtime: podmanRoot, image: IMAGE, probe: p, capabilities: buildCapabilities({ backend: 'podman', isolation: 'runsc', rootless: false, probe: p }) });
    const row = gvisor.checks.find((c) => c.id === 'checkpoints')!;
    expect(row).toMatchObject({ label: 'Session checkpoints', status: 'warn' });
    expect(row.detail).toMatch(/^None on this tier: under gVisor .*PR_SET_CHILD_SUBREAPER.*`<id>@<n>` is refused, saying why\.$/);
    expect(row.hint).toMatch(/runc/);
    expect(gvisor.ok).toBe(true);
    const runc = buildHealthReport({ seccomp: 'sandbar', runtime: { ...podmanRoot, ociRuntime: 'runc' }, image: IMAGE, probe: probe(), capabilities: buildCapabilities({ backend: 'podman', isolation: 'runc', rootless: false, probe: probe() }) });
    expect(runc.checks.some((c) => c.id === 'checkpoints')).toBe(false);
    const k8s = buildHealthReport({ seccomp: 'sandbar', runtime: { ...podmanRoot, name: 'kubernetes' }, image: IMAGE, probe: probe(), capabilities: buildCapabilities({ backend: 'kubernetes', isolation: 'runsc', rootless: true, probe: probe() }) });
    expect(k8s.checks.some((c) => c.id === 'checkpoints')).toBe(false); // no sessions there at all
  });

  it('reports a probe that did not run as unknown with its error', () => {
    const caps = buildCapabilities({ backend: 'podman', isolation: 'runc', rootless: true, probe: { ok: false, error: 'boom' } });
    expect(caps.limits.seccomp).toEqual({ state: 'unknown', detail: 'boom' });
  });
});

describe('health with a capability matrix', () => {
  it('shows a gVisor pids exception amber with the reason, and still ok', () => {
    const p = probe(['pids']);
    const capabilities = buildCapabilities({ backend: 'podman', isolation: 'runsc', rootless: false, probe: p });
    const report = buildHealthReport({ seccomp: 'sandbar', runtime: podmanRoot, image: IMAGE, probe: p, capabilities });
    const pids = report.checks.find((c) => c.id === 'enforced.pids')!;
    expect(pids.status).toBe('warn');
    expect(pids.detail).toMatch(/^Not enforced on this backend: /);
    expect(pids.hint).toMatch(/gVisor/);
    expect(report.enforced.pids).toBe(false);
    expect(report.ok).toBe(true);
    expect(report.capabilities?.limits.pids.state).toBe('exception');
    expect(report.checks.find((c) => c.id === 'runtime')!.detail).toMatch(/not rootless/);
  });

  it('a pids failure under runc still fails health', () => {
    const p = probe(['pids']);
    const capabilities = buildCapabilities({ backend: 'podman', isolation: 'runc', rootless: false, probe: p });
    const report = buildHealthReport({ seccomp: 'sandbar', runtime: podmanRoot, image: IMAGE, probe: p, capabilities });
    expect(report.checks.find((c) => c.id === 'enforced.pids')!.status).toBe('fail');
    expect(report.ok).toBe(false);
  });
});

describe('sandbar doctor text', () => {
  it('prints the matrix line for the backend in use', async () => {
    const { formatHealth } = await import('../../../electron/cli/doctor-command.js');
    const p = probe(['pids', 'seccomp']);
    const capabilities = buildCapabilities({ backend: 'podman', isolation: 'runsc', rootless: false, probe: p });
    const text = formatHealth(buildHealthReport({ seccomp: 'sandbar', runtime: podmanRoot, image: IMAGE, probe: p, capabilities }));
    expect(text).toContain('Limits on podman with gVisor: memory ✓, pids !, network ✓, readOnlyRoot ✓, capabilities ✓, seccomp !');
  });
});
