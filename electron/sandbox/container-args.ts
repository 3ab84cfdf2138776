// The engine's view of a container run, turned into a SandboxSpec and handed to the backend's translator.
import type { Limits } from '../../shared/limits.js';
import { BOOTSTRAP_SOURCE } from './bootstrap.js';
import { dockerArgs } from './docker-args.js';
import { podmanArgs } from './podman-args.js';
import type { RuntimeName } from './runtime-locator.js';
import { isolationOf, type SandboxSpec } from './sandbox-spec.js';

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
  readOnlyMounts?: readonly { source: string; target: string }[];
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
export function sandboxSpecOf(limits: Limits, run: Omit<ContainerRun, 'runtime'>): SandboxSpec {
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
  };
}

/** The argv for the engine's runtime: one translator per backend, chosen by name. */
export function buildContainerArgs(limits: Limits, run: ContainerRun): string[] {
  const spec = sandboxSpecOf(limits, run);
  return run.runtime === 'podman' ? podmanArgs(spec) : dockerArgs(spec);
}
