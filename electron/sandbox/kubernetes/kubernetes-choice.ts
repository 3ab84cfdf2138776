// How settings pick this backend: `runtime: "kubernetes"`, with the kubeconfig, namespace and RuntimeClass
// settings. The composition root asks each backend's choice in turn; nobody else names this backend.
import type { Settings } from '../../../shared/settings.js';
import type { Owner, SandboxBackend } from '../backend.js';
import { KubernetesBackend } from './kubernetes-backend.js';
import { loadKubeConfig } from './kubernetes-client.js';

export const kubernetesChoice = {
  /** Settings this backend is made from: a change to any of them makes a new one. */
  settingKeys: ['runtime', 'kubeconfig', 'kubernetesNamespace', 'kubernetesRuntimeClass'] as const,
  chosen: (settings: Pick<Settings, 'runtime'>) => settings.runtime === 'kubernetes',
  create(settings: Settings, owner: Owner, bootModules: () => Record<string, string>): SandboxBackend {
    const options = { namespace: settings.kubernetesNamespace, ...(settings.kubernetesRuntimeClass ? { runtimeClassName: settings.kubernetesRuntimeClass } : {}) };
    // The kubeconfig (and the client library) load on first use: a bad one fails runs, not start-up.
    return new KubernetesBackend(() => loadKubeConfig(settings.kubeconfig), options, owner, bootModules);
  },
};
