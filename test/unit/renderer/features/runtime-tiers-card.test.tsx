// @vitest-environment jsdom
// Health's every-runtime matrix: each limit's state per installed runtime and tier, exceptions explained.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RuntimeTiersCard } from '../../../../renderer/features/health/runtime-tiers-card.js';
import { buildCapabilities } from '../../../../electron/sandbox/capabilities.js';
import { cliFeatures, rootlessNote } from '../../../../electron/sandbox/cli/cli-health.js';
import { ENFORCED_KEYS, type EnforcedKey } from '../../../../shared/health.js';
import { useUiStore } from '../../../../renderer/stores/ui-store.js';
import { fakeApi } from './api-mock.js';

vi.mock('../../../../renderer/api/index.js', async () => {
  const errors = await import('../../../../renderer/api/errors.js');
  const { fakeApi: api } = await import('./api-mock.js');
  return { api, ApiCallError: errors.ApiCallError, describeError: errors.describeError, NOT_AUTHORISED_HELP: errors.NOT_AUTHORISED_HELP };
});

afterEach(cleanup);

const caps = (backend: 'podman' | 'docker', isolation: 'runc' | 'runsc', notEnforced: EnforcedKey[], rootless: boolean) =>
  buildCapabilities({
    backend, features: cliFeatures(backend), rootlessNote: rootlessNote(backend), isolation, rootless,
    probe: { ok: true, findings: Object.fromEntries(ENFORCED_KEYS.map((k) => [k, { enforced: !notEnforced.includes(k), detail: `${k} detail` }])) as Record<EnforcedKey, { enforced: boolean; detail: string }> },
  });

describe('RuntimeTiersCard', () => {
  it('probes on request and shows each limit per runtime: gVisor\'s pids amber with its reason, a real failure red, an unprobed tier with why', async () => {
    fakeApi.handle('health.tiers', () => [
      { runtime: 'podman', isolation: 'runc', capabilities: caps('podman', 'runc', [], true) },
      { runtime: 'podman', isolation: 'runsc', capabilities: caps('podman', 'runsc', ['pids'], true) },
      { runtime: 'docker', isolation: 'runc', capabilities: caps('docker', 'runc', ['memory'], false) },
      { runtime: 'docker', isolation: 'runsc', error: 'the image img is not present in docker' },
    ]);
    render(<RuntimeTiersCard />);
    expect(screen.queryByRole('table')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Probe every runtime' }));
    const table = await screen.findByRole('table', { name: 'Limits per runtime' });
    expect(fakeApi.callsOf('health.tiers')).toHaveLength(1);
    const dot = (label: string) => within(table).getByRole('img', { name: label });
    expect(dot('podman, Process limit: enforced').className).toContain('dot-ok');
    expect(dot('podman + gVisor, Process limit: not enforced on this backend').className).toContain('dot-warn');
    expect(dot('docker, Memory limit: not enforced').className).toContain('dot-fail');
    expect(within(table).getByRole('rowheader', { name: /^docker\s*\(not rootless\)$/ })).toBeTruthy();
    expect(within(table).getByRole('rowheader', { name: 'podman' })).toBeTruthy();
    expect(within(table).getByText(/not probed: the image img is not present in docker/)).toBeTruthy();
    const reasons = screen.getByRole('list', { name: 'Why some limits are not enforced' });
    expect(reasons.textContent).toMatch(/podman \+ gVisor, Process limit: gVisor: processes inside the sandbox are not host pids/);
    // Checkpoints per tier: kept under runc, none under gVisor, with the reason in words.
    const cells = (tier: string) => within(within(table).getByRole('rowheader', { name: tier }).closest('tr')!).getAllByRole('cell');
    expect(cells('podman').at(-1)!.textContent).toBe('kept');
    expect(cells('podman + gVisor').at(-1)!.textContent).toBe('none');
    const why = screen.getByRole('list', { name: 'Why some runtimes keep no checkpoints' });
    expect(why.textContent).toMatch(/^podman \+ gVisor, checkpoints: under gVisor the relay cannot adopt .*PR_SET_CHILD_SUBREAPER/);
  });

  it('says why when the probe cannot run, and offers it again', async () => {
    fakeApi.handle('health.tiers', () => {
      throw new Error('no runtime');
    });
    render(<RuntimeTiersCard />);
    fireEvent.click(screen.getByRole('button', { name: 'Probe every runtime' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Probe every runtime' }).hasAttribute('disabled')).toBe(false));
    expect(screen.queryByRole('table')).toBeNull();
    expect(useUiStore.getState().toasts.map((t) => t.message)).toContain('Could not probe the runtimes: no runtime');
  });
});
