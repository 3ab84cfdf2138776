// The health report: what `sandbar doctor --json` prints and what the Health view shows.

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface HealthCheck {
  id: string;
  label: string;
  status: CheckStatus;
  detail: string;
  /** How to fix it; present on every check that is not ok. */
  hint?: string;
}

export const ENFORCED_KEYS = ['memory', 'pids', 'network', 'readOnlyRoot', 'capabilities', 'seccomp'] as const;
export type EnforcedKey = (typeof ENFORCED_KEYS)[number];

export interface RuntimeReport {
  /** kubernetes: path is the API server, ociRuntime the RuntimeClass. */
  name: 'podman' | 'docker' | 'kubernetes';
  path: string;
  version: string;
  rootless: boolean;
  cgroupVersion: 1 | 2 | null;
  ociRuntime: string;
  storageDriver: string;
  /** Why Sandbar overrode the OCI runtime, when it did. */
  ociRuntimeNote?: string;
  /** OCI runtimes installed on this machine that the user may select (runc, crun, runsc, ...). */
  availableOciRuntimes: string[];
}

/**
 * One limit on one backend, as the probe found it: `enforced` (proven), `failed` (should hold but did
 * not: unsafe), `exception` (a documented limit of this backend or isolation tier: amber, with `reason`),
 * or `unknown` (not probed).
 */
export interface LimitState {
  state: 'enforced' | 'failed' | 'exception' | 'unknown';
  detail: string;
  reason?: string;
}

/** What the backend in use can enforce, proven by the probe (the Health view's matrix). */
export interface CapabilityMatrix {
  backend: 'podman' | 'docker' | 'kubernetes';
  isolation: 'runc' | 'runsc';
  rootless: boolean;
  rootlessNote?: string;
  lifetimeBackstop: boolean;
  pauseResume: boolean;
  /** Session checkpoints (`<id>@<n>`) on this tier: `true`, or why not (gVisor refuses what the agent needs). */
  checkpoints: true | string;
  limits: Record<EnforcedKey, LimitState>;
}

/** One installed runtime and isolation tier, probed with the same spec (Health's every-runtime matrix). */
export interface RuntimeTier {
  runtime: 'podman' | 'docker';
  isolation: 'runc' | 'runsc';
  /** Absent when the tier could not be probed (`error` says why). */
  capabilities?: CapabilityMatrix;
  error?: string;
}

export interface HealthReport {
  /** True only when code can run safely: runtime, image and every enforcement check pass. */
  ok: boolean;
  /** When this report was made: the live rows (endpoint, pool and queue, servers) are as they were then. */
  checkedAt: number;
  /** When the enforcement probe last ran for it; null when it has not (no image, or a report without it). */
  probedAt?: number | null;
  runtime: RuntimeReport | null;
  image: { name: string; present: boolean };
  /** Which syscall filter runs apply: Sandbar's profile, or the runtime's weaker default (user's choice). */
  seccomp: 'sandbar' | 'runtime-default';
  /** Proven by the probe container; false when not proven (including when the probe could not run). */
  enforced: Record<EnforcedKey, boolean>;
  checks: HealthCheck[];
  /** Per limit: enforced, failed, or a documented exception of this backend (absent before a probe). */
  capabilities?: CapabilityMatrix;
}
