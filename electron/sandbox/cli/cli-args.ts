// The run flags Podman and Docker share. Each backend's translator (podman-args.ts, docker-args.ts) adds
// its own around these; both end with `-- IMAGE COMMAND` so nothing after `--` can become a flag.
import type { FolderMount } from '../../../shared/folders.js';
import { assertSafeSpec, FOLDER_MOUNT_OPTIONS, TMPFS_OPTIONS, tmpfsMounts, type SandboxSpec } from '../sandbox-spec.js';

export function sharedRunFlags(spec: SandboxSpec, engine: { podman: boolean }): string[] {
  assertSafeSpec(spec);
  const { podman } = engine;
  const gvisor = spec.isolation === 'runsc';
  const args: string[] = [];
  // Images are pulled explicitly (with progress), never as a side effect of a run.
  args.push('--pull=never');
  args.push('--network', 'none');
  args.push('--read-only');
  // Podman otherwise adds writable tmpfs on /run and /var/tmp with no size limit.
  if (podman) args.push('--read-only-tmpfs=false');
  // Podman copies the host's *_proxy variables (credentials included) into containers by default.
  if (podman) args.push('--http-proxy=false');
  for (const mount of tmpfsMounts(spec)) args.push('--tmpfs', `${mount.path}:${TMPFS_OPTIONS},size=${mount.size},mode=1777`);
  args.push('--cap-drop', 'ALL');
  args.push('--security-opt', 'no-new-privileges');
  if (spec.seccompProfile) args.push('--security-opt', `seccomp=${spec.seccompProfile}`);
  // An init as PID 1 forwards signals and reaps orphans; Python as PID 1 ignores SIGTERM.
  args.push('--init');
  args.push('--user', spec.user);
  args.push('--memory', spec.limits.memory, '--memory-swap', spec.limits.memory);
  // gVisor's guest processes are not host pids: a low limit kills the sandbox at start and a high one
  // bounds nothing, so the runtime's default stays and the probe reports pids as not enforced.
  if (!gvisor) args.push('--pids-limit', String(spec.limits.pids));
  if (spec.limits.cpus !== null) args.push('--cpus', String(spec.limits.cpus));
  if (spec.ulimits) {
    const { nofile, nproc } = spec.ulimits;
    args.push('--ulimit', `nofile=${nofile}:${nofile}`, '--ulimit', `nproc=${nproc}:${nproc}`);
  }
  for (const mount of spec.readOnlyMounts ?? []) args.push('--mount', `type=bind,source=${mount.source},target=${mount.target},readonly`);
  for (const folder of spec.folders ?? []) args.push('--mount', podman ? podmanFolderMount(folder) : dockerFolderMount(folder));
  args.push('--workdir', '/workspace');
  for (const [key, value] of Object.entries(spec.env)) args.push('--env', `${key}=${value}`);
  // Output travels over the attached pipe; a log driver would only copy it to disk.
  args.push('--log-driver', 'none');
  return args;
}

/** Podman's bind mount takes nosuid,nodev,noexec itself, read-only or writable. */
export function podmanFolderMount(folder: FolderMount): string {
  return ['type=bind', `source=${folder.source}`, `target=${folder.target}`, ...(folder.writable ? [] : ['readonly']), ...FOLDER_MOUNT_OPTIONS].join(',');
}

/**
 * Docker's bind mount takes no nosuid,nodev,noexec; its local volume driver bind-mounts the folder with
 * them and remounts it read-only (only a read-only bind is remounted, so Docker refuses writable folders:
 * cliFeatures says why). The options are one CSV field, quoted; paths never hold `"` or `,` (sandbox-spec.ts).
 */
export function dockerFolderMount(folder: FolderMount): string {
  if (folder.writable) throw new Error(`Docker cannot mount a writable folder noexec: ${folder.name}`);
  const options = ['bind', 'ro', ...FOLDER_MOUNT_OPTIONS].join(',');
  return ['type=volume', `target=${folder.target}`, 'volume-driver=local', 'volume-opt=type=none', `volume-opt=device=${folder.source}`, `"volume-opt=o=${options}"`].join(',');
}

export function labelFlags(spec: SandboxSpec): string[] {
  return Object.entries(spec.labels).flatMap(([key, value]) => ['--label', `${key}=${value}`]);
}

/** Everything after the options: `--` ends them, so an image or command can never be read as a flag. */
export function imageAndCommand(spec: SandboxSpec): string[] {
  return ['--', spec.image, ...spec.command];
}
