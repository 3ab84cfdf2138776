// Kubernetes' translator: a SandboxSpec to one Pod (and the namespace's deny-all NetworkPolicy). Pure;
// plain objects in the API's own shape, so the same manifest goes to the API server and to
// `podman kube play` in tests.
import { parseSize } from '../../../shared/limits.js';
import { assertSafeSpec, tmpfsMounts, type SandboxSpec } from '../sandbox-spec.js';

export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'sandbar' } as const;
export const SANDBOX_CONTAINER = 'sandbox';

export interface PodOptions {
  namespace: string;
  /** A RuntimeClass (for example `gvisor`); otherwise the node's default runtime. */
  runtimeClassName?: string;
  /** Pods created ahead of need carry this label, so a later instance can adopt them. */
  warm?: boolean;
}

export type Json = Record<string, unknown>;

/** Kubernetes quantities: the runtimes' `512m` (MiB) is `512Mi`, never `512m` (milli-bytes). */
export function toQuantity(size: string): string {
  const bytes = parseSize(size);
  for (const [unit, factor] of [['Gi', 1024 ** 3], ['Mi', 1024 ** 2], ['Ki', 1024]] as const) {
    if (bytes % factor === 0) return `${bytes / factor}${unit}`;
  }
  return String(bytes);
}

/** Label values: at most 63 characters of [A-Za-z0-9._-], starting and ending alphanumeric. */
export function labelValue(value: string): string {
  const cleaned = value.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  return cleaned || 'x';
}

function ids(user: string): { uid: number; gid: number } {
  const [uid, gid] = user.split(':');
  return { uid: Number(uid), gid: Number(gid ?? uid) };
}

export function podManifest(spec: SandboxSpec, options: PodOptions): Json {
  assertSafeSpec(spec);
  const { uid, gid } = ids(spec.user);
  const memory = toQuantity(spec.limits.memory);
  const resources: Json = { memory };
  if (spec.limits.cpus !== null) resources.cpu = String(spec.limits.cpus);
  const labels: Record<string, string> = { ...MANAGED_BY };
  for (const [key, value] of Object.entries(spec.labels)) labels[key] = labelValue(value);
  if (options.warm) labels['sandbar.warm'] = 'true';
  // Localhost means Sandbar's profile installed on the node; without one, the runtime's default.
  const seccompProfile = spec.seccompProfile
    ? { type: 'Localhost', localhostProfile: spec.seccompProfile }
    : { type: 'RuntimeDefault' };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: spec.name, namespace: options.namespace, labels },
    spec: {
      restartPolicy: 'Never',
      // The backstop: the kubelet kills the pod even if Sandbar is gone.
      ...(spec.lifetime.maxLifetimeSec ? { activeDeadlineSeconds: spec.lifetime.maxLifetimeSec } : {}),
      ...(options.runtimeClassName ? { runtimeClassName: options.runtimeClassName } : {}),
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      hostNetwork: false,
      hostPID: false,
      hostIPC: false,
      securityContext: { runAsNonRoot: true, runAsUser: uid, runAsGroup: gid, seccompProfile },
      containers: [
        {
          name: SANDBOX_CONTAINER,
          image: spec.image,
          imagePullPolicy: 'IfNotPresent',
          command: [...spec.command],
          // Our frame channel: stdin attached once, no TTY (frames are binary-safe JSON lines).
          stdin: true,
          stdinOnce: true,
          tty: false,
          workingDir: '/workspace',
          env: Object.entries(spec.env).map(([name, value]) => ({ name, value })),
          // requests = limits: the scheduler reserves what the sandbox may use (Guaranteed when cpus is set).
          resources: { requests: { ...resources }, limits: { ...resources } },
          securityContext: {
            runAsNonRoot: true,
            runAsUser: uid,
            runAsGroup: gid,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            privileged: false,
            capabilities: { drop: ['ALL'] },
          },
          volumeMounts: tmpfsMounts(spec).map((m) => ({ name: volumeName(m.path), mountPath: m.path })),
        },
      ],
      // Memory-backed emptyDir is a tmpfs; its size counts against the memory limit too.
      volumes: tmpfsMounts(spec).map((m) => ({ name: volumeName(m.path), emptyDir: { medium: 'Memory', sizeLimit: toQuantity(m.size) } })),
    },
  };
}

function volumeName(mountPath: string): string {
  return mountPath.replace(/^\//, '').replace(/[^a-z0-9-]/g, '-');
}

/** Selects every Sandbar pod and allows no traffic in or out (no rules under both policy types). */
export function denyAllNetworkPolicy(namespace: string): Json {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'sandbar-deny-all', namespace, labels: { ...MANAGED_BY } },
    spec: { podSelector: { matchLabels: { ...MANAGED_BY } }, policyTypes: ['Ingress', 'Egress'] },
  };
}

/** The label selector for the reaper: every pod this backend made. */
export const OWNED_SELECTOR = 'app.kubernetes.io/managed-by=sandbar';
