// What the Podman and Docker backend says about itself for health: the runtime found (what it is, where,
// rootless or not), whether the image is there, the enforcement probe, and its capability matrix.
import { errorMessage } from '../../../shared/errors.js';
import type { RuntimeReport } from '../../../shared/health.js';
import { allLimitsEnforced, type BackendFeatures, type BackendHealth, type BackendKind, type ContainerSpec, type Owner } from '../backend.js';
import { buildCapabilities } from '../capabilities.js';
import { probeWith, type ProbeResult } from '../probe.js';
import { isolationOf } from '../sandbox-spec.js';
import { ContainerFactory } from './container-factory.js';
import type { ContainerRuntime, RuntimeInfo } from './container-runtime.js';

/** Why gVisor keeps no checkpoints: its kernel (runsc here) refuses both ways for the relay to adopt them. */
export const GVISOR_NO_CHECKPOINTS =
  'under gVisor the relay cannot adopt the process that holds a checkpoint (runsc refuses PR_SET_CHILD_SUBREAPER and ignores CLONE_PARENT), so a session there keeps none; use runc for step backs';

/** Podman and Docker differ in one fact: Docker has no runtime-side lifetime cap (`--timeout`). */
export function cliFeatures(kind: BackendKind): BackendFeatures {
  return {
    label: kind === 'docker' ? 'Docker' : 'Podman',
    pause: true,
    packages: true,
    checkpoints: { runc: true, runsc: GVISOR_NO_CHECKPOINTS }, // in the sandbox: the agent forks (issue 28)
    // Docker's bind mounts take no noexec; only a read-only volume bind gets it (cli-args.ts).
    folders: { readOnly: true, writable: kind === 'docker' ? 'Docker cannot mount a folder writable and noexec,nosuid,nodev at once (only a read-only bind is remounted with them), so writable folders are refused on Docker; use Podman for them.' : true },
    // The agent's channel is the container's stdin/stdout, which carries egress frames (run/egress-tunnel.ts).
    egress: true,
    lifetimeBackstop: kind !== 'docker',
    limits: allLimitsEnforced(),
  };
}

/** Said in health when the runtime runs as root: sandboxes are still unprivileged, but an escape is not. */
export function rootlessNote(kind: BackendKind): string {
  if (kind === 'docker') {
    return 'Docker runs as root here (not rootless): sandboxes are still unprivileged (non-root uid, no capabilities, seccomp), but an escape from the runtime would be root on the host. Rootless Docker: dockerd-rootless-setuptool.sh install.';
  }
  return 'Podman runs as root here (not rootless): sandboxes are unprivileged, but an escape from the runtime would be root on the host.';
}

export function toRuntimeReport(info: RuntimeInfo): RuntimeReport {
  return {
    name: info.name,
    path: info.path,
    version: info.version,
    rootless: info.rootless,
    cgroupVersion: info.cgroupVersion,
    ociRuntime: info.ociRuntime,
    storageDriver: info.storageDriver,
    ...(info.ociRuntimeNote ? { ociRuntimeNote: info.ociRuntimeNote } : {}),
    availableOciRuntimes: info.availableOciRuntimes,
  };
}

/** The enforcement probe on this runtime, outside any backend instance (the tier matrix). */
export async function runEnforcementProbe(runtime: ContainerRuntime, owner: Owner, spec: ContainerSpec): Promise<ProbeResult> {
  const factory = new ContainerFactory(runtime, owner);
  return probeWith({ create: (s, o) => factory.start(s, o), kill: (names) => runtime.killAndRemove(names) }, spec);
}

export async function cliHealth(
  runtime: ContainerRuntime,
  spec: ContainerSpec,
  options: { probe: boolean; runProbe: (spec: ContainerSpec) => Promise<ProbeResult> },
): Promise<BackendHealth> {
  let info: RuntimeInfo;
  try {
    info = await runtime.resolve();
  } catch (err) {
    return { runtime: null, runtimeError: errorMessage(err), image: { name: spec.image, present: false }, probe: null };
  }
  const present = await runtime.imageExists(spec.image).catch(() => false);
  const probe = options.probe && present ? await options.runProbe(spec) : null;
  // The probe may have switched OCI runtime (crun fallback): report what is in force now.
  const report = toRuntimeReport(runtime.current() ?? info);
  const capabilities = buildCapabilities({
    backend: report.name,
    features: cliFeatures(report.name),
    isolation: isolationOf(spec.ociRuntime ?? report.ociRuntime),
    rootless: report.rootless,
    rootlessNote: rootlessNote(report.name),
    probe,
  });
  return { runtime: report, image: { name: spec.image, present }, probe, capabilities };
}
