// Every flag of a sandbox container, built by one pure function so each one can be tested.
import { AppError } from '../../shared/errors.js';
import { imageReferenceProblem } from '../../shared/image-ref.js';
import type { Limits } from '../../shared/limits.js';
import { BOOTSTRAP_SOURCE } from './bootstrap.js';
import type { RuntimeName } from './runtime-locator.js';

export const LABEL_INSTANCE = 'sandbar.instance';
export const LABEL_PID = 'sandbar.pid';
export const LABEL_HOST = 'sandbar.host';
export const LABEL_EXECUTION = 'sandbar.execution';

export interface ContainerRun {
  runtime: RuntimeName;
  image: string;
  /** `sandbar-<id>`: the handle the host kills by. */
  name: string;
  /** Who owns the container, so a later start can tell a dead owner's leftovers from a live one's. */
  owner: { instanceId: string; pid: number; host: string };
  /** Known only for cold starts; pooled containers are made before their execution exists. */
  executionId?: string;
  /** Runtime-side lifetime cap, so containers die even if the host process is killed (podman only). */
  maxLifetimeSec?: number;
  /** From the host's hard limits; null off Linux. */
  ulimits: { nofile: number; nproc: number } | null;
  /** An OCI runtime to force (runc when crun fails on a cgroup-hybrid host). */
  ociRuntime?: string;
  /** Path to a seccomp profile; undefined keeps the runtime's default profile. */
  seccompProfile?: string;
}

export const SANDBOX_ENV: Readonly<Record<string, string>> = {
  HOME: '/workspace',
  PYTHONUNBUFFERED: '1',
  PYTHONIOENCODING: 'utf-8',
  PYTHONDONTWRITEBYTECODE: '1',
};

const TMPFS_OPTIONS = 'rw,noexec,nosuid,nodev';

/** The last line of defence before an argv: whatever the caller, an image that is not a reference never runs. */
export function assertImageReference(image: string): void {
  const problem = imageReferenceProblem(image);
  if (problem) throw new AppError('invalid_config', `Refused image ${JSON.stringify(image)}: ${problem}.`);
}

export function buildContainerArgs(limits: Limits, run: ContainerRun): string[] {
  const podman = run.runtime === 'podman';
  const args: string[] = [];
  // Podman takes the OCI runtime as a global flag; Docker as a `run` flag.
  // `--flag=value` everywhere a value comes from settings: a value can never be read as a flag of its own.
  if (podman && run.ociRuntime) args.push(`--runtime=${run.ociRuntime}`);
  args.push('run', '--rm', '--interactive', '--name', run.name);
  args.push('--label', `${LABEL_INSTANCE}=${run.owner.instanceId}`);
  args.push('--label', `${LABEL_PID}=${run.owner.pid}`);
  args.push('--label', `${LABEL_HOST}=${run.owner.host}`);
  if (run.executionId) args.push('--label', `${LABEL_EXECUTION}=${run.executionId}`);
  if (!podman && run.ociRuntime) args.push(`--runtime=${run.ociRuntime}`);

  // Images are pulled explicitly (with progress), never as a side effect of a run.
  args.push('--pull=never');
  args.push('--network', 'none');
  args.push('--read-only');
  // Podman otherwise adds writable tmpfs on /run and /var/tmp with no size limit.
  if (podman) args.push('--read-only-tmpfs=false');
  // Podman copies the host's *_proxy variables (credentials included) into containers by default.
  if (podman) args.push('--http-proxy=false');
  args.push('--tmpfs', `/tmp:${TMPFS_OPTIONS},size=${limits.tmpSize},mode=1777`);
  args.push('--tmpfs', `/workspace:${TMPFS_OPTIONS},size=${limits.workspaceSize},mode=1777`);
  args.push('--cap-drop', 'ALL');
  args.push('--security-opt', 'no-new-privileges');
  if (run.seccompProfile) args.push('--security-opt', `seccomp=${run.seccompProfile}`);
  // An init as PID 1 forwards signals and reaps orphans; Python as PID 1 ignores SIGTERM.
  args.push('--init');
  args.push('--user', limits.user);
  args.push('--memory', limits.memory, '--memory-swap', limits.memory);
  args.push('--pids-limit', String(limits.pids));
  if (limits.cpus !== null) args.push('--cpus', String(limits.cpus));
  if (run.ulimits) {
    const { nofile, nproc } = run.ulimits;
    args.push('--ulimit', `nofile=${nofile}:${nofile}`, '--ulimit', `nproc=${nproc}:${nproc}`);
  }
  args.push('--workdir', '/workspace');
  for (const [key, value] of Object.entries(SANDBOX_ENV)) args.push('--env', `${key}=${value}`);
  // Output travels over the attached pipe; a log driver would only copy it to disk.
  args.push('--log-driver', 'none');
  if (podman && run.maxLifetimeSec) args.push('--timeout', String(run.maxLifetimeSec));

  // The image comes from settings: checked against the reference grammar, and after `--` so that even a
  // value that slipped past the check is a positional argument, never a flag.
  assertImageReference(run.image);
  args.push('--', run.image, 'python3', '-c', BOOTSTRAP_SOURCE);
  return args;
}
