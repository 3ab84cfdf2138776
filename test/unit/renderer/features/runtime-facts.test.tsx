// @vitest-environment jsdom
// The Health view's capability matrix: each limit's state on the backend in use.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RuntimeFacts } from '../../../../renderer/features/health/runtime-facts.js';
import { buildCapabilities } from '../../../../electron/sandbox/capabilities.js';
import { cliFeatures, rootlessNote } from '../../../../electron/sandbox/cli/cli-health.js';
import { ENFORCED_KEYS, type EnforcedKey, type HealthReport } from '../../../../shared/health.js';

afterEach(cleanup);

function report(notEnforced: EnforcedKey[], isolation: 'runc' | 'runsc', backend: 'podman' | 'docker' = 'podman'): HealthReport {
  const findings = Object.fromEntries(ENFORCED_KEYS.map((k) => [k, { enforced: !notEnforced.includes(k), detail: `${k} detail` }])) as Record<EnforcedKey, { enforced: boolean; detail: string }>;
  const capabilities = buildCapabilities({ backend, features: cliFeatures(backend), rootlessNote: rootlessNote(backend), isolation, rootless: false, probe: { ok: true, findings } });
  return {
    ok: true, checkedAt: 0, seccomp: 'sandbar', image: { name: 'img', present: true },
    enforced: Object.fromEntries(ENFORCED_KEYS.map((k) => [k, !notEnforced.includes(k)])) as Record<EnforcedKey, boolean>,
    runtime: { name: backend, path: `/usr/bin/${backend}`, version: '1', rootless: false, cgroupVersion: 1, ociRuntime: isolation, storageDriver: 'overlay', availableOciRuntimes: [] },
    checks: [], capabilities,
  };
}

const row = (label: string) => within(screen.getByRole('list', { name: 'Limits the probe proved' })).getByText(label).closest('li')!;

describe('RuntimeFacts capability matrix', () => {
  it('shows gVisor\'s pids as amber with the reason, the others as enforced', () => {
    render(<RuntimeFacts report={report(['pids', 'seccomp'], 'runsc')} />);
    expect(screen.getByText(/Proven by the probe on podman with gVisor/)).toBeTruthy();
    expect(within(row('Process limit')).getByRole('img').getAttribute('aria-label')).toBe('not enforced on this backend');
    expect(row('Process limit').textContent).toMatch(/not host pids/);
    expect(within(row('Memory limit')).getByRole('img').getAttribute('aria-label')).toBe('enforced');
  });

  it('shows an unexpected failure red, and says when Docker is not rootless', () => {
    render(<RuntimeFacts report={report(['pids'], 'runc', 'docker')} />);
    expect(within(row('Process limit')).getByRole('img').className).toContain('dot-fail');
    expect(screen.getByText(/Docker runs as root here \(not rootless\)/)).toBeTruthy();
  });

  it('says what the backend can do besides limits: Docker has no lifetime cap, Podman has one', () => {
    render(<RuntimeFacts report={report([], 'runc', 'docker')} />);
    const facts = screen.getByLabelText('What the backend can do');
    expect(facts.textContent).toMatch(/Lifetime capnone in the runtime/);
    expect(facts.textContent).toMatch(/Pause\/resumesupported/);
    cleanup();
    render(<RuntimeFacts report={report([], 'runc', 'podman')} />);
    expect(screen.getByLabelText('What the backend can do').textContent).toMatch(/Lifetime capin the runtime/);
  });

  it('says checkpoints are kept under runc and, under gVisor, why there are none', () => {
    render(<RuntimeFacts report={report([], 'runc', 'podman')} />);
    expect(screen.getByLabelText('What the backend can do').textContent).toMatch(/Checkpointskept in the sandbox: a session can step back/);
    cleanup();
    render(<RuntimeFacts report={report(['pids', 'seccomp'], 'runsc', 'podman')} />);
    expect(screen.getByLabelText('What the backend can do').textContent).toMatch(/Checkpointsnone: under gVisor the relay cannot adopt .*PR_SET_CHILD_SUBREAPER/);
  });
});
