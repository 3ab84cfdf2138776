// Which backend the settings pick (backend-choice.ts), and that the optional Kubernetes client loads only
// when that backend is chosen and then used: Podman and Docker never load it, and choosing Kubernetes with
// a bad kubeconfig fails its runs, not start-up.
import { describe, expect, it, vi } from 'vitest';
import { BackendChooser, cliRuntimeChoice } from '../../../electron/backend-choice.js';
import { newOwner } from '../../../electron/sandbox/backend.js';
import { ContainerRuntime } from '../../../electron/sandbox/cli/container-runtime.js';
import type * as KubernetesClient from '../../../electron/sandbox/kubernetes/kubernetes-client.js';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/settings.js';

const loads = vi.hoisted(() => ({ client: 0, kubeconfig: 0 }));
vi.mock('../../../electron/sandbox/kubernetes/kubernetes-client.js', async (original) => {
  const real = await original<typeof KubernetesClient>();
  return {
    ...real,
    k8s: () => (loads.client++, real.k8s()),
    loadKubeConfig: (file: string | null) => (loads.kubeconfig++, real.loadKubeConfig(file)),
  };
});

const settings = (patch: Partial<Settings>): Settings => ({ ...DEFAULT_SETTINGS, ...patch });

describe('BackendChooser', () => {
  const chooser = new BackendChooser(new ContainerRuntime({ env: {}, platform: 'linux' }), newOwner(), () => ({}));

  it('gives Podman and Docker (and no runtime setting) the CLI backend, one object, without loading the Kubernetes client', () => {
    const cli = chooser.backendFor(settings({ runtime: null }));
    expect(cli.features.label).not.toBe('Kubernetes');
    expect(chooser.backendFor(settings({ runtime: 'podman' }))).toBe(cli);
    expect(chooser.backendFor(settings({ runtime: 'docker' }))).toBe(cli);
    expect(loads).toEqual({ client: 0, kubeconfig: 0 });
    expect(cliRuntimeChoice(settings({ runtime: 'docker' }))).toMatchObject({ value: 'docker' });
    expect(cliRuntimeChoice(settings({ runtime: 'kubernetes' }))).toBeUndefined();
  });

  it('makes a Kubernetes backend when chosen, loading the kubeconfig only on first use, where a bad one fails with words', () => {
    const kube = chooser.backendFor(settings({ runtime: 'kubernetes', kubeconfig: '/nonexistent/kubeconfig' }));
    expect(kube.features.label).toBe('Kubernetes');
    expect(loads).toEqual({ client: 0, kubeconfig: 0 });
    // First use (health reads the API server): the kubeconfig loads, and a missing one is a clear error.
    expect(() => (kube as unknown as { server: string }).server).toThrow(/Could not load the kubeconfig/);
    expect(loads.kubeconfig).toBe(1);
  });
});
