// The official Kubernetes client (an optional dependency), loaded on first use when the Kubernetes runtime is
// chosen, and the kubeconfig it reads.
import { createRequire } from 'node:module';
import type * as K8sModule from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';
import { AppError } from '../../../shared/errors.js';

type KubernetesClient = typeof K8sModule;
let loadedClient: KubernetesClient | undefined;

export const KUBERNETES_CLIENT_MISSING =
  'The Kubernetes runtime needs the optional package @kubernetes/client-node, which this installation does not include (the desktop package leaves it out, as does npm install --omit=optional). Install it beside Sandbar (npm install @kubernetes/client-node) and run `npm run serve`, or choose podman or docker as the runtime.';

const requireClient = (): KubernetesClient => createRequire(import.meta.url)('@kubernetes/client-node') as KubernetesClient;

/** Loads the client through `load` (the seam tests use); a missing package is a clear error, not a stack. */
export function loadClient(load: () => KubernetesClient = requireClient): KubernetesClient {
  try {
    return load();
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && /@kubernetes\/client-node/.test(String((err as Error).message));
    if (missing) throw new AppError('runtime_not_found', KUBERNETES_CLIENT_MISSING, { cause: err });
    throw err;
  }
}

/**
 * The client library takes most of a second to load, so only a kubernetes runtime pays for it: every
 * other command (run, doctor, serve) starts without it. Loaded synchronously (require of an ES module,
 * Node 20.19+), because backends are chosen synchronously.
 */
export function k8s(): KubernetesClient {
  return (loadedClient ??= loadClient());
}

/** Loads a kubeconfig file, or the default chain (KUBECONFIG, ~/.kube/config, in-cluster). */
export function loadKubeConfig(file: string | null): KubeConfig {
  const kc = new (k8s().KubeConfig)();
  if (file) kc.loadFromFile(file);
  else kc.loadFromDefault();
  return kc;
}

export const isNotFound = (err: unknown) => (err as { code?: number }).code === 404;
export const isConflict = (err: unknown) => (err as { code?: number }).code === 409;
