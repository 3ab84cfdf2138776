// Starts sandbox containers: builds their flags, boots the agent, and explains failures in words.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { AppError } from '../../shared/errors.js';
import type { Limits } from '../../shared/limits.js';
import { buildBootLine, DEFAULT_MAX_FRAME_BYTES, OUT_DIR } from './bootstrap.js';
import { buildContainerArgs, PACKAGE_LAYERS_MOUNT } from './container-args.js';
import type { ContainerRuntime } from './container-runtime.js';
import { isCrunHybridFailure } from './runtime-info.js';
import type { FontList, PreloadPlan } from './warm-imports.js';
import type { AttachedProcess } from './command.js';
import { SandboxContainer } from './sandbox-container.js';

/** Everything that decides a container's flags; a change to any of it drains the warm pool. */
export interface ContainerSpec {
  image: string;
  limits: Limits;
  /** What pooled containers import before code arrives (see warm-imports.ts); not a flag, but pooled
   * containers made for another plan are replaced. */
  preload?: PreloadPlan;
  seccompProfile?: string;
  /** The user's choice of OCI runtime; otherwise the runtime's default (or Sandbar's runc fallback). */
  ociRuntime?: string;
  /** Host directory of package layers, mounted read-only in every sandbox (a run picks its layer). */
  packageLayers?: string;
}

export function specKey(spec: ContainerSpec): string {
  const { limits } = spec;
  return JSON.stringify([spec.image, spec.seccompProfile ?? '', spec.ociRuntime ?? '', limits.memory, limits.pids, limits.cpus, limits.tmpSize, limits.workspaceSize, limits.user, spec.preload ?? null, spec.packageLayers ?? '']);
}

export interface Owner {
  instanceId: string;
  pid: number;
  host: string;
}

export function newOwner(): Owner {
  return { instanceId: randomBytes(6).toString('hex'), pid: process.pid, host: hostname() };
}

export interface StartOptions {
  executionId?: string;
  /** Pooled containers wait for work: the agent and the runtime both cap how long. */
  idleTimeoutSec?: number;
  maxLifetimeSec?: number;
  /** Modules the agent imports before `ready` (pooled containers only). */
  preload?: PreloadPlan;
  /** Matplotlib's font list for this image, so no sandbox builds its own. */
  mplFontCache?: FontList;
}

/** The boot payload's share of StartOptions. */
export function bootExtras(options: StartOptions): Pick<StartOptions, 'preload' | 'mplFontCache'> {
  return { ...(options.preload ? { preload: options.preload } : {}), ...(options.mplFontCache ? { mplFontCache: options.mplFontCache } : {}) };
}

const BOOT_TIMEOUT_MS = 60_000;

export class ContainerFactory {
  constructor(
    private readonly runtime: ContainerRuntime,
    readonly owner: Owner,
    private readonly bootModules: () => Record<string, string> = () => ({}),
  ) {}

  async start(spec: ContainerSpec, options: StartOptions = {}): Promise<SandboxContainer> {
    try {
      return await this.startOnce(spec, options);
    } catch (err) {
      const info = this.runtime.current();
      if (err instanceof AppError && isCrunHybridFailure(err.message) && info && !info.ociRuntimeOverride && !spec.ociRuntime) {
        this.runtime.forceOciRuntime('runc', `${info.ociRuntime || 'crun'} failed on this cgroup-hybrid host ("cgroups in hybrid mode not supported"); Sandbar uses runc instead.`);
        return this.startOnce(spec, options);
      }
      throw err;
    }
  }

  /** The exact command line a container of this spec gets (the panel shows it as limits are edited). */
  async argsFor(spec: ContainerSpec, name: string, options: StartOptions = {}): Promise<string[]> {
    const info = await this.runtime.resolve();
    return buildContainerArgs(spec.limits, {
      runtime: info.name,
      image: spec.image,
      name,
      owner: this.owner,
      ...(options.executionId ? { executionId: options.executionId } : {}),
      ...(options.maxLifetimeSec ? { maxLifetimeSec: options.maxLifetimeSec } : {}),
      ulimits: info.ulimits,
      ...(spec.ociRuntime || info.ociRuntimeOverride ? { ociRuntime: spec.ociRuntime ?? info.ociRuntimeOverride } : {}),
      ...(spec.seccompProfile ? { seccompProfile: spec.seccompProfile } : {}),
      ...(spec.packageLayers ? { readOnlyMounts: [{ source: spec.packageLayers, target: PACKAGE_LAYERS_MOUNT }] } : {}),
    });
  }

  private async startOnce(spec: ContainerSpec, options: StartOptions): Promise<SandboxContainer> {
    const name = `sandbar-${randomBytes(6).toString('hex')}`;
    const args = await this.argsFor(spec, name, options);
    const proc = await this.runtime.spawn(args);
    try {
      return await bootSandbox(name, proc, { idleTimeoutSec: options.idleTimeoutSec ?? 600, modules: this.bootModules(), ...bootExtras(options) });
    } catch (err) {
      void this.runtime.killAndRemove([name]).catch(() => {});
      throw explainStartFailure(spec.image, err instanceof Error ? err.message : String(err));
    }
  }
}

/**
 * Boots the agent over an attached process (a CLI client, or a Kubernetes attach stream): writes the boot
 * line and waits for `ready`. On failure the client is detached; killing the sandbox is the caller's.
 */
export async function bootSandbox(
  name: string,
  proc: AttachedProcess,
  options: { idleTimeoutSec: number; modules: Record<string, string>; timeoutMs?: number } & Pick<StartOptions, 'preload' | 'mplFontCache'>,
): Promise<SandboxContainer> {
  const timeoutMs = options.timeoutMs ?? BOOT_TIMEOUT_MS;
  const bootLine = buildBootLine({
    idleTimeoutSec: options.idleTimeoutSec,
    maxFrameBytes: DEFAULT_MAX_FRAME_BYTES,
    modules: options.modules,
    outDir: OUT_DIR,
    ...bootExtras(options),
  });
  const container = new SandboxContainer(name, proc, bootLine, DEFAULT_MAX_FRAME_BYTES);
  container.preloading = options.preload !== undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the agent did not start within ${timeoutMs / 1000}s`)), timeoutMs);
  });
  try {
    await Promise.race([container.ready, timeout]);
    return container;
  } catch (err) {
    container.detachClient();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

export function explainStartFailure(image: string, detail: string): AppError {
  if (/image not known|no such image|unable to find image|pull access denied|not found.*image/i.test(detail)) {
    return new AppError('image_missing', `The sandbox image ${image} is not present. Pull it with \`sandbar image pull\` or set SANDBAR_IMAGE. (${detail.trim()})`);
  }
  return new AppError('runtime_failed', `The container failed to start: ${detail.trim()}`);
}
