// Pure: turns what the probe proved on a backend into its capability matrix, with the documented
// exceptions marked amber and explained: those the backend declares (its features) and those of the
// isolation tier (gVisor).
import { ENFORCED_KEYS, type EnforcedKey } from '../../shared/health.js';
import type { BackendCapabilities, BackendFeatures, BackendKind, LimitState, ProbeResult } from './backend.js';
import type { Isolation } from './sandbox-spec.js';

/** Why a limit cannot hold here, or undefined when it must (and its failure is unsafe). */
export function knownException(key: EnforcedKey, features: Pick<BackendFeatures, 'limits'>, isolation: Isolation): string | undefined {
  if (key === 'pids' && isolation === 'runsc') {
    return 'gVisor: processes inside the sandbox are not host pids, so a pids limit does not bound them (and a low one kills the sandbox at start). Fork bombs are bounded by the memory limit and the timeout instead.';
  }
  if (key === 'seccomp' && isolation === 'runsc') {
    return "gVisor implements the syscalls in its own user-space kernel and does not load the OCI seccomp profile (this runsc has no --oci-seccomp); the Sentry runs under gVisor's own host seccomp filter.";
  }
  const support = features.limits[key];
  return support.enforced ? undefined : support.reason;
}

export function limitStates(probe: ProbeResult | null, features: Pick<BackendFeatures, 'limits'>, isolation: Isolation): Record<EnforcedKey, LimitState> {
  const out = {} as Record<EnforcedKey, LimitState>;
  for (const key of ENFORCED_KEYS) {
    if (!probe) {
      out[key] = { state: 'unknown', detail: 'not probed yet' };
      continue;
    }
    if (!probe.ok) {
      out[key] = { state: 'unknown', detail: probe.error };
      continue;
    }
    const finding = probe.findings[key];
    const reason = knownException(key, features, isolation);
    if (finding.enforced) out[key] = { state: 'enforced', detail: finding.detail };
    else if (reason) out[key] = { state: 'exception', detail: finding.detail, reason };
    else out[key] = { state: 'failed', detail: finding.detail };
  }
  return out;
}

export function buildCapabilities(input: {
  backend: BackendKind;
  features: BackendFeatures;
  isolation: Isolation;
  rootless: boolean;
  /** The backend's own words when it runs as root (an escape would be root on the host). */
  rootlessNote?: string;
  probe: ProbeResult | null;
}): BackendCapabilities {
  return {
    backend: input.backend,
    isolation: input.isolation,
    rootless: input.rootless,
    ...(input.rootlessNote && !input.rootless ? { rootlessNote: input.rootlessNote } : {}),
    lifetimeBackstop: input.features.lifetimeBackstop,
    pauseResume: input.features.pause,
    checkpoints: input.features.checkpoints[input.isolation],
    limits: limitStates(input.probe, input.features, input.isolation),
  };
}
