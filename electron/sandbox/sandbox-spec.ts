// What one sandbox is, independent of the backend that runs it. Each backend has one pure translator
// from this spec (podman-args.ts, docker-args.ts, pod-manifest.ts); nothing else builds a command line.
import { AppError } from '../../shared/errors.js';
import { FOLDER_NAME_RE, folderMountPath, UNMOUNTABLE_CHARS_RE, type FolderMount } from '../../shared/folders.js';
import { imageReferenceProblem } from '../../shared/image-ref.js';
import type { Limits } from '../../shared/limits.js';
import { BOOTSTRAP_SOURCE } from './agent/bootstrap.js';

/** runc-class kernels share the host kernel; runsc (gVisor) puts a user-space kernel in between. */
export type Isolation = 'runc' | 'runsc';

export interface SandboxSpec {
  /** `sandbar-<id>`: the handle the host kills by. */
  name: string;
  image: string;
  limits: Pick<Limits, 'memory' | 'pids' | 'cpus' | 'tmpSize' | 'workspaceSize'>;
  /** `uid` or `uid:gid`, never 0 (LimitsSchema refuses it). */
  user: string;
  /** In insertion order; the owner labels first. */
  labels: Record<string, string>;
  /** A seccomp profile file (CLI backends) or a node-local profile name (Kubernetes); none: the runtime's default. */
  seccompProfile?: string;
  lifetime: {
    /** Runtime-side cap so the sandbox dies even if the host process is killed. */
    maxLifetimeSec?: number;
  };
  isolation: Isolation;
  /** The OCI runtime binary to force (runc after crun's cgroup-hybrid failure, or runsc). */
  ociRuntime?: string;
  /** From the host's hard limits; null off Linux and where the backend has no ulimits (Kubernetes). */
  ulimits: { nofile: number; nproc: number } | null;
  env: Readonly<Record<string, string>>;
  command: readonly string[];
  /** Host directories the sandbox may read and never write (package layers); none by default. */
  readOnlyMounts?: readonly { source: string; target: string }[];
  /** The user's folders at /mnt/<name>: read-only unless writable, always nosuid,nodev,noexec. */
  folders?: readonly FolderMount[];
}

/** runsc by name or path means gVisor; anything else is a runc-class runtime. */
export function isolationOf(ociRuntime: string | undefined | null): Isolation {
  return ociRuntime && /(^|[\\/])runsc$/.test(ociRuntime) ? 'runsc' : 'runc';
}

export const TMPFS_OPTIONS = 'rw,noexec,nosuid,nodev';

/** Every folder of the user's is mounted with these, writable or not. */
export const FOLDER_MOUNT_OPTIONS = ['nosuid', 'nodev', 'noexec'] as const;

/** The two writable places; everything else is read-only. */
export function tmpfsMounts(spec: SandboxSpec): { path: string; size: string }[] {
  return [
    { path: '/tmp', size: spec.limits.tmpSize },
    { path: '/workspace', size: spec.limits.workspaceSize },
  ];
}

/** The last line of defence before an argv: whatever the caller, an image that is not a reference never runs. */
export function assertImageReference(image: string): void {
  const problem = imageReferenceProblem(image);
  if (problem) throw new AppError('invalid_config', `Refused image ${JSON.stringify(image)}: ${problem}.`);
}

/** Flags a value cannot smuggle in: the image and names are checked before any argv is built. */
// `<` `>` only so the panel's preview can show `sandbar-<run>`.
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.<>-]{0,127}$/;

export function assertSafeSpec(spec: SandboxSpec): void {
  assertImageReference(spec.image);
  if (!NAME_RE.test(spec.name)) throw new Error(`not a sandbox name: ${JSON.stringify(spec.name)}`);
  if (!/^\d+(:\d+)?$/.test(spec.user) || Number(spec.user.split(':')[0]) === 0) throw new Error(`not a non-root uid: ${spec.user}`);
  if (spec.ociRuntime !== undefined && !/^[A-Za-z0-9._/][A-Za-z0-9._/-]*$/.test(spec.ociRuntime)) throw new Error(`not an OCI runtime: ${spec.ociRuntime}`);
  for (const mount of spec.readOnlyMounts ?? []) {
    // `--mount` splits on commas and `-v` on colons: a path with either could add options of its own.
    for (const p of [mount.source, mount.target]) {
      if (!p.startsWith('/') || /[,:\n\r\0]/.test(p)) throw new Error(`not a mountable path: ${JSON.stringify(p)}`);
    }
  }
  for (const folder of spec.folders ?? []) {
    // Judged and resolved upstream; checked again here because these strings reach a command line.
    if (!FOLDER_NAME_RE.test(folder.name) || folder.target !== folderMountPath(folder.name)) throw new Error(`not a folder mount: ${JSON.stringify(folder.target)}`);
    if (!folder.source.startsWith('/') || folder.source === '/' || UNMOUNTABLE_CHARS_RE.test(folder.source)) throw new Error(`not a mountable folder: ${JSON.stringify(folder.source)}`);
  }
  for (const [key, value] of Object.entries(spec.labels)) {
    if (!/^[A-Za-z0-9._/-]+$/.test(key) || /[\n\r=]/.test(value)) throw new Error(`not a label: ${key}`);
  }
}

export const LABEL_INSTANCE = 'sandbar.instance';
export const LABEL_PID = 'sandbar.pid';
export const LABEL_HOST = 'sandbar.host';
export const LABEL_EXECUTION = 'sandbar.execution';

/** One sandbox as the engine asks for it (owner, name, runtime facts), before any backend translates it. */
export interface SandboxRun {
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
  readOnlyMounts?: readonly { source: string; target: string }[];
  folders?: readonly FolderMount[];
}

/** Where package layers appear in every sandbox (read-only); a run adds its own layer to sys.path. */
export const PACKAGE_LAYERS_MOUNT = '/opt/sandbar/layers';

export const SANDBOX_ENV: Readonly<Record<string, string>> = {
  HOME: '/workspace',
  PYTHONUNBUFFERED: '1',
  PYTHONIOENCODING: 'utf-8',
  PYTHONDONTWRITEBYTECODE: '1',
};

/** The engine's run (limits as settings hold them, owner, runtime facts) as a backend-neutral spec. */
export function sandboxSpecOf(limits: Limits, run: SandboxRun): SandboxSpec {
  const labels: Record<string, string> = {
    [LABEL_INSTANCE]: run.owner.instanceId,
    [LABEL_PID]: String(run.owner.pid),
    [LABEL_HOST]: run.owner.host,
  };
  if (run.executionId) labels[LABEL_EXECUTION] = run.executionId;
  return {
    name: run.name,
    image: run.image,
    limits: { memory: limits.memory, pids: limits.pids, cpus: limits.cpus, tmpSize: limits.tmpSize, workspaceSize: limits.workspaceSize },
    user: limits.user,
    labels,
    ...(run.seccompProfile ? { seccompProfile: run.seccompProfile } : {}),
    lifetime: run.maxLifetimeSec ? { maxLifetimeSec: run.maxLifetimeSec } : {},
    isolation: isolationOf(run.ociRuntime),
    ...(run.ociRuntime ? { ociRuntime: run.ociRuntime } : {}),
    ulimits: run.ulimits,
    env: SANDBOX_ENV,
    command: ['python3', '-c', BOOTSTRAP_SOURCE],
    ...(run.readOnlyMounts?.length ? { readOnlyMounts: run.readOnlyMounts } : {}),
    ...(run.folders?.length ? { folders: run.folders } : {}),
  };
}
