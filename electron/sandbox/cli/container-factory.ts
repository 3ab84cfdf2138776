// Starts sandbox containers: builds their flags, boots the agent, and explains failures in words.
import { randomBytes } from 'node:crypto';
import { AppError } from '../../../shared/errors.js';
import { buildContainerArgs } from './container-args.js';
import { PACKAGE_LAYERS_MOUNT } from '../sandbox-spec.js';
import type { ContainerRuntime } from './container-runtime.js';
import { isCrunHybridFailure } from './runtime-info.js';
import type { SandboxContainer } from '../run/sandbox-container.js';
import { bootSandbox, explainStartFailure } from '../run/boot-sandbox.js';
import { bootExtras, type ContainerSpec, type Owner, type StartOptions } from '../backend.js';


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
      ...(spec.packageLayer ? { readOnlyMounts: [{ source: spec.packageLayer.source, target: `${PACKAGE_LAYERS_MOUNT}/${spec.packageLayer.key}` }] } : {}),
      // The last guard: Docker never gets a writable folder (it could not be noexec); see cliFeatures.
      ...(spec.folders?.length ? { folders: info.name === 'docker' ? spec.folders.filter((f) => !f.writable) : spec.folders } : {}),
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
