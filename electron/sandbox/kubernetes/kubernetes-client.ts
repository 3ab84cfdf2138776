// The official Kubernetes client, loaded on first use, and the kubeconfig it reads.
import { createRequire } from 'node:module';
import type * as K8sModule from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';

type KubernetesClient = typeof K8sModule;
let loadedClient: KubernetesClient | undefined;
/**
 * The client library takes most of a second to load, so only a kubernetes runtime pays for it: every
 * other command (run, doctor, serve) starts without it. Loaded synchronously (require of an ES module,
 * Node 20.19+), because backends are chosen synchronously.
 */
export function k8s(): KubernetesClient {
  return (loadedClient ??= createRequire(import.meta.url)('@kubernetes/client-node') as KubernetesClient);
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
