// Health on the Kubernetes backend: the cluster in use and the probe run as a pod, in the same report
// shape as the CLI runtimes (the panel and `sandbar doctor` need no special case).
import { errorMessage } from '../../shared/errors.js';
import type { HealthReport, RuntimeReport } from '../../shared/health.js';
import { buildCapabilities } from '../sandbox/capabilities.js';
import type { ContainerSpec } from '../sandbox/backend.js';
import { buildHealthReport } from './sandbox-checks.js';
import type { KubernetesBackend } from '../sandbox/kubernetes/kubernetes-backend.js';

export async function collectKubernetesHealth(backend: KubernetesBackend, spec: ContainerSpec, options: { probe: boolean }): Promise<HealthReport> {
  const seccomp = spec.seccompProfile ? 'sandbar' : 'runtime-default';
  let server: string;
  try {
    server = backend.server;
  } catch (err) {
    return buildHealthReport({ runtime: null, runtimeError: errorMessage(err), image: { name: spec.image, present: false }, probe: null, seccomp });
  }
  const runtime: RuntimeReport = {
    name: 'kubernetes',
    path: server,
    version: '',
    // Pods run with runAsNonRoot; what the nodes' runtime runs as is the cluster's business.
    rootless: true,
    cgroupVersion: null,
    ociRuntime: backend.runtimeClassName ? `RuntimeClass ${backend.runtimeClassName}` : "the nodes' default runtime",
    storageDriver: `namespace ${backend.namespace}`,
    availableOciRuntimes: [],
  };
  const probe = options.probe ? await backend.probe(spec) : null;
  // The node pulls the image: it is "present" once a pod started, and missing only when the pull failed.
  const present = probe === null || probe.ok || !/ErrImagePull|ImagePullBackOff|InvalidImageName|not present/i.test(probe.error);
  const capabilities = buildCapabilities({
    backend: 'kubernetes',
    isolation: /gvisor|runsc/i.test(backend.runtimeClassName ?? '') ? 'runsc' : 'runc',
    rootless: true,
    probe,
  });
  return buildHealthReport({ runtime, image: { name: spec.image, present }, probe, seccomp, capabilities });
}
