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
  name: 'podman' | 'docker';
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

export interface HealthReport {
  /** True only when code can run safely: runtime, image and every enforcement check pass. */
  ok: boolean;
  checkedAt: number;
  runtime: RuntimeReport | null;
  image: { name: string; present: boolean };
  /** Which syscall filter runs apply: Sandbar's profile, or the runtime's weaker default (user's choice). */
  seccomp: 'sandbar' | 'runtime-default';
  /** Proven by the probe container; false when not proven (including when the probe could not run). */
  enforced: Record<EnforcedKey, boolean>;
  checks: HealthCheck[];
}
