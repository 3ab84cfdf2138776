// What the Kubernetes backend says about itself for health: the cluster in use and the probe run as a pod,
// in the same shape as the CLI runtimes give (the panel and `sandbar doctor` need no special case).
import { errorMessage } from '../../../shared/errors.js';
import type { RuntimeReport } from '../../../shared/health.js';
import { allLimitsEnforced, type BackendFeatures, type BackendHealth, type ContainerSpec } from '../backend.js';
import { buildCapabilities } from '../capabilities.js';
import type { ProbeResult } from '../probe.js';
import type { Isolation } from '../sandbox-spec.js';

const NO_SESSIONS = 'Kubernetes cannot pause a pod, so it keeps no sessions, and no checkpoints of them';

/** A pod cannot be paused (no sessions) nor mount this machine's package layers; the kubelet bounds pids, not the pod. */
export const KUBERNETES_FEATURES: BackendFeatures = {
  label: 'Kubernetes',
  pause: false,
  packages: false,
  checkpoints: { runc: NO_SESSIONS, runsc: NO_SESSIONS },
  folders: {
    readOnly: 'a pod runs on a cluster node, which cannot see the folders of this computer',
    writable: 'a pod runs on a cluster node, which cannot see the folders of this computer',
  },
  egress: false,
  lifetimeBackstop: true,
  limits: allLimitsEnforced({
    pids: 'Kubernetes has no per-pod pids limit; only the node-wide podPidsLimit of the kubelet bounds processes. Fork bombs are bounded by the memory limit and activeDeadlineSeconds.',
  }),
};

/** A RuntimeClass whose name says gVisor is the runsc tier. */
export const isolationOfClass = (runtimeClassName: string | undefined): Isolation => (/gvisor|runsc/i.test(runtimeClassName ?? '') ? 'runsc' : 'runc');

export interface KubernetesFacts {
  /** The API server (throws when the kubeconfig cannot be loaded). */
  server(): string;
  namespace: string;
  runtimeClassName: string | undefined;
  probe(spec: ContainerSpec): Promise<ProbeResult>;
}

export async function kubernetesHealth(facts: KubernetesFacts, spec: ContainerSpec, options: { probe: boolean }): Promise<BackendHealth> {
  let server: string;
  try {
    server = facts.server();
  } catch (err) {
    return { runtime: null, runtimeError: errorMessage(err), image: { name: spec.image, present: false }, probe: null };
  }
  const runtime: RuntimeReport = {
    name: 'kubernetes',
    path: server,
    version: '',
    // Pods run with runAsNonRoot; what the nodes' runtime runs as is the cluster's business.
    rootless: true,
    cgroupVersion: null,
    ociRuntime: facts.runtimeClassName ? `RuntimeClass ${facts.runtimeClassName}` : "the nodes' default runtime",
    storageDriver: `namespace ${facts.namespace}`,
    availableOciRuntimes: [],
  };
  const probe = options.probe ? await facts.probe(spec) : null;
  // The node pulls the image: it is "present" once a pod started, and missing only when the pull failed.
  const present = probe === null || probe.ok || !/ErrImagePull|ImagePullBackOff|InvalidImageName|not present/i.test(probe.error);
  const capabilities = buildCapabilities({ backend: 'kubernetes', features: KUBERNETES_FEATURES, isolation: isolationOfClass(facts.runtimeClassName), rootless: true, probe });
  return { runtime, image: { name: spec.image, present }, probe, capabilities };
}
