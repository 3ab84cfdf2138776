// Health of the sandbox: is there a runtime, what is it, is the image there, and does every limit actually
// hold. The backend gathers the facts (its health()); the checks, hints and `ok` are decided here alone.
import { ENFORCED_KEYS, type CapabilityMatrix, type EnforcedKey, type HealthCheck, type HealthReport, type RuntimeReport } from '../../shared/health.js';
import type { ContainerSpec, SandboxBackend } from '../sandbox/backend.js';
import type { ProbeFinding, ProbeResult } from '../sandbox/probe.js';

const LABELS: Record<EnforcedKey, string> = {
  memory: 'Memory limit enforced',
  pids: 'Process limit enforced',
  network: 'No network',
  readOnlyRoot: 'Read-only root filesystem',
  capabilities: 'No capabilities, no privilege escalation',
  seccomp: 'Syscall filter (seccomp)',
};

/** Pure: the fix hint for a limit that did not hold on this runtime. */
export function enforcementHint(key: EnforcedKey, runtime: RuntimeReport | null): string {
  const rootlessV1 = runtime?.rootless && runtime.cgroupVersion === 1;
  if ((key === 'memory' || key === 'pids') && rootlessV1) {
    return `Rootless ${runtime.name} on cgroup v1 accepts --memory and --pids-limit but ignores them. Boot the host with cgroup v2 (kernel parameter systemd.unified_cgroup_hierarchy=1) or run ${runtime.name} as root.`;
  }
  switch (key) {
    case 'memory':
      return 'The memory cgroup controller is not enforcing limits. On cgroup v2 rootless setups, delegate the memory controller to your user (systemd: Delegate=memory pids cpu).';
    case 'pids':
      return 'The pids cgroup controller is not enforcing limits. On cgroup v2 rootless setups, delegate the pids controller to your user (systemd: Delegate=memory pids cpu).';
    case 'network':
      return 'The runtime did not honour --network none. Check its network configuration and update it.';
    case 'readOnlyRoot':
      return 'The runtime did not honour --read-only. Update the container runtime.';
    case 'capabilities':
      return 'The runtime did not honour --cap-drop ALL / no-new-privileges. Update the container runtime.';
    case 'seccomp':
      return 'The runtime did not apply Sandbar\'s seccomp profile (--security-opt seccomp=...). Update the container runtime; a remote Podman or Docker must be able to read the profile file.';
  }
}

/** Pure: assembles the report from what was found. */
export function buildHealthReport(input: {
  runtime: RuntimeReport | null;
  runtimeError?: string;
  image: { name: string; present: boolean };
  probe: ProbeResult | null;
  seccomp: 'sandbar' | 'runtime-default';
  /** The backend's matrix; a limit marked `exception` there is amber with its reason, not a failure. */
  capabilities?: CapabilityMatrix;
}): HealthReport {
  const { runtime, image, probe, seccomp, capabilities } = input;
  const exception = (key: EnforcedKey) => (capabilities?.limits[key].state === 'exception' ? capabilities.limits[key].reason : undefined);
  const checks: HealthCheck[] = [];
  if (runtime) {
    const mode = runtime.rootless ? 'rootless' : 'rootful';
    checks.push({
      id: 'runtime',
      label: 'Container runtime',
      status: 'ok',
      detail: `${runtime.name} ${runtime.version} at ${runtime.path} (${mode}, cgroup v${runtime.cgroupVersion ?? '?'}, ${runtime.ociRuntime || 'default OCI runtime'}, ${runtime.storageDriver || 'default'} storage)${capabilities?.rootlessNote ? `. ${capabilities.rootlessNote}` : ''}`,
    });
    if (runtime.ociRuntimeNote) {
      checks.push({ id: 'ociRuntime', label: 'OCI runtime', status: 'warn', detail: runtime.ociRuntimeNote, hint: 'Nothing to do: runc enforces the same limits. Moving the host to pure cgroup v2 lets crun run again.' });
    }
  } else {
    checks.push({
      id: 'runtime',
      label: 'Container runtime',
      status: 'fail',
      detail: input.runtimeError ?? 'No container runtime found.',
      hint: 'Install Podman (recommended, rootless) or Docker, or set SANDBAR_RUNTIME to its path.',
    });
  }
  if (runtime) {
    checks.push(
      image.present
        ? { id: 'image', label: 'Sandbox image', status: 'ok', detail: `${image.name} is present` }
        : { id: 'image', label: 'Sandbox image', status: 'fail', detail: `${image.name} is not present`, hint: `Pull it with \`npm run -s sandbar -- image pull\`, or set SANDBAR_IMAGE to an image with python3 (3.8+).` },
    );
  }

  const enforced = Object.fromEntries(ENFORCED_KEYS.map((k) => [k, false])) as Record<EnforcedKey, boolean>;
  if (probe?.ok) {
    for (const key of ENFORCED_KEYS) {
      const finding = probe.findings[key];
      enforced[key] = finding.enforced;
      const reason = finding.enforced ? undefined : exception(key);
      if (reason) {
        // A documented limit of this backend or tier: said plainly, amber, never shown as a pass.
        checks.push({ id: `enforced.${key}`, label: LABELS[key], status: 'warn', detail: `Not enforced on this backend: ${finding.detail}`, hint: reason });
        continue;
      }
      if (key === 'seccomp') {
        checks.push(seccompCheck(seccomp, finding, runtime));
        continue;
      }
      checks.push({
        id: `enforced.${key}`,
        label: LABELS[key],
        status: finding.enforced ? 'ok' : 'fail',
        detail: finding.detail,
        ...(finding.enforced ? {} : { hint: enforcementHint(key, runtime) }),
      });
    }
  } else if (runtime && image.present) {
    checks.push({
      id: 'probe',
      label: 'Enforcement probe',
      status: 'fail',
      detail: probe ? probe.error : 'The probe has not run.',
      hint: 'Run the probe again (or `npm run -s sandbar -- doctor`); if it keeps failing, the detail above names the runtime error.',
    });
  }
  if (capabilities?.pauseResume && typeof capabilities.checkpoints === 'string') {
    // Sessions run here, but cannot step back (gVisor): a missing feature, amber, never a safety failure.
    checks.push({
      id: 'checkpoints',
      label: 'Session checkpoints',
      status: 'warn',
      detail: `None on this tier: ${capabilities.checkpoints}. Sessions work; \`<id>@<n>\` is refused, saying why.`,
      hint: 'Run sessions under runc (the OCI runtime setting) when they need to step back to a recent call.',
    });
  }
  // The runtime's default profile is the user's informed choice: weaker (amber), not unsafe to run.
  const required = ENFORCED_KEYS.filter((k) => (k !== 'seccomp' || seccomp === 'sandbar') && !exception(k));
  const ok = runtime !== null && image.present && probe?.ok === true && required.every((k) => enforced[k]);
  const checkedAt = Date.now();
  return { ok, checkedAt, probedAt: probe ? checkedAt : null, runtime, image, seccomp, enforced, checks, ...(capabilities ? { capabilities } : {}) };
}

function seccompCheck(mode: 'sandbar' | 'runtime-default', finding: ProbeFinding, runtime: RuntimeReport | null): HealthCheck {
  const base = { id: 'enforced.seccomp', label: LABELS.seccomp };
  if (mode === 'runtime-default') {
    return {
      ...base,
      status: 'warn',
      detail: `seccomp: the runtime's default profile (weaker; chosen in settings). ${finding.detail}`,
      hint: 'Switch the seccomp setting back to Sandbar\'s profile: it also denies user namespaces, keyctl and ptrace.',
    };
  }
  return finding.enforced
    ? { ...base, status: 'ok', detail: `seccomp: Sandbar profile. ${finding.detail}` }
    : { ...base, status: 'fail', detail: `seccomp: Sandbar profile requested but not in force. ${finding.detail}`, hint: enforcementHint('seccomp', runtime) };
}

/** The report for the backend in use (or any backend: the tier matrix probes each installed one). */
export async function collectHealth(backend: Pick<SandboxBackend, 'health'>, spec: ContainerSpec, options: { probe: boolean }): Promise<HealthReport> {
  const facts = await backend.health(spec, options);
  return buildHealthReport({ ...facts, seccomp: spec.seccompProfile ? 'sandbar' : 'runtime-default' });
}
