// Pure: turns what the probe proved on a backend into its capability matrix, with the documented
// exceptions (a limit the backend or isolation tier cannot enforce) marked amber and explained.
import { ENFORCED_KEYS, type EnforcedKey } from '../../shared/health.js';
import type { BackendCapabilities, BackendKind, LimitState } from './backend.js';
import type { ProbeResult } from './probe.js';
import type { Isolation } from './sandbox-spec.js';

/** Why a limit cannot hold here, or undefined when it must (and its failure is unsafe). */
export function knownException(key: EnforcedKey, backend: BackendKind, isolation: Isolation): string | undefined {
  if (key === 'pids' && isolation === 'runsc') {
    return 'gVisor: processes inside the sandbox are not host pids, so a pids limit does not bound them (and a low one kills the sandbox at start). Fork bombs are bounded by the memory limit and the timeout instead.';
  }
  if (key === 'pids' && backend === 'kubernetes') {
    return 'Kubernetes has no per-pod pids limit; only the node-wide podPidsLimit of the kubelet bounds processes. Fork bombs are bounded by the memory limit and activeDeadlineSeconds.';
  }
  if (key === 'seccomp' && isolation === 'runsc') {
    return "gVisor implements the syscalls in its own user-space kernel and does not load the OCI seccomp profile (this runsc has no --oci-seccomp); the Sentry runs under gVisor's own host seccomp filter.";
  }
  return undefined;
}

export function limitStates(probe: ProbeResult | null, backend: BackendKind, isolation: Isolation): Record<EnforcedKey, LimitState> {
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
    const reason = knownException(key, backend, isolation);
    if (finding.enforced) out[key] = { state: 'enforced', detail: finding.detail };
    else if (reason) out[key] = { state: 'exception', detail: finding.detail, reason };
    else out[key] = { state: 'failed', detail: finding.detail };
  }
  return out;
}

export function rootlessNote(backend: BackendKind, rootless: boolean): string | undefined {
  if (rootless) return undefined;
  if (backend === 'docker') {
    return 'Docker runs as root here (not rootless): sandboxes are still unprivileged (non-root uid, no capabilities, seccomp), but an escape from the runtime would be root on the host. Rootless Docker: dockerd-rootless-setuptool.sh install.';
  }
  if (backend === 'podman') return 'Podman runs as root here (not rootless): sandboxes are unprivileged, but an escape from the runtime would be root on the host.';
  return undefined;
}

export function buildCapabilities(input: {
  backend: BackendKind;
  isolation: Isolation;
  rootless: boolean;
  probe: ProbeResult | null;
}): BackendCapabilities {
  const note = rootlessNote(input.backend, input.rootless);
  return {
    backend: input.backend,
    isolation: input.isolation,
    rootless: input.rootless,
    ...(note ? { rootlessNote: note } : {}),
    lifetimeBackstop: input.backend !== 'docker',
    pauseResume: input.backend !== 'kubernetes',
    limits: limitStates(input.probe, input.backend, input.isolation),
  };
}
