// The Podman and Docker backend: the SandboxBackend interface over the engine's CLI (ContainerRuntime)
// and its container factory. Which of the two it is comes from the runtime found.
import {
  type BackendCapabilities,
  type BackendFeatures,
  type BackendHealth,
  type BackendKind,
  type SandboxBackend,
  type SandboxExit,
  specKey,
  type ContainerSpec,
  type Owner,
  type StartOptions,
  type OwnedContainer,
  type ContainerMemory,
} from '../backend.js';
import { agentBootModules } from '../agent/bootstrap.js';
import { buildCapabilities } from '../capabilities.js';
import { ContainerFactory } from './container-factory.js';
import type { ContainerRuntime } from './container-runtime.js';
import type { ProbeResult } from '../probe.js';
import type { SandboxContainer } from '../run/sandbox-container.js';
import { isolationOf } from '../sandbox-spec.js';
import { cliFeatures, cliHealth, rootlessNote, runEnforcementProbe } from './cli-health.js';

export { runEnforcementProbe };

export class CliBackend implements SandboxBackend {
  private readonly factory: ContainerFactory;
  private probed = new Map<string, ProbeResult>();

  constructor(
    readonly runtime: ContainerRuntime,
    readonly owner: Owner,
    /** The agent's Python modules; the sandbox-side MCP runtime by default. */
    bootModules: () => Record<string, string> = agentBootModules,
  ) {
    this.factory = new ContainerFactory(runtime, owner, bootModules);
  }

  get kind(): BackendKind {
    return this.runtime.current()?.name ?? 'podman';
  }

  get features(): BackendFeatures {
    return cliFeatures(this.kind);
  }

  async capabilities(spec: ContainerSpec): Promise<BackendCapabilities> {
    const info = await this.runtime.resolve();
    const probe = this.probed.get(specKey(spec)) ?? (await this.probe(spec));
    const ociRuntime = spec.ociRuntime ?? this.runtime.current()?.ociRuntime;
    return buildCapabilities({ backend: info.name, features: cliFeatures(info.name), isolation: isolationOf(ociRuntime), rootless: info.rootless, rootlessNote: rootlessNote(info.name), probe });
  }

  health(spec: ContainerSpec, options: { probe: boolean }): Promise<BackendHealth> {
    return cliHealth(this.runtime, spec, { probe: options.probe, runProbe: (s) => this.probe(s) });
  }

  /** Forgets what it knew of the runtime first, so a runtime that went away (or came back) is noticed. */
  async quickHealth(image: string): Promise<{ runtime: boolean; image: boolean }> {
    this.runtime.reset();
    try {
      await this.runtime.resolve();
    } catch {
      return { runtime: false, image: false };
    }
    return { runtime: true, image: await this.runtime.imageExists(image).catch(() => false) };
  }

  create(spec: ContainerSpec, options: StartOptions & { warm?: boolean } = {}): Promise<SandboxContainer> {
    const { warm: _warm, ...start } = options;
    return this.factory.start(spec, start);
  }

  describe(spec: ContainerSpec, name: string, options: StartOptions = {}): Promise<string[]> {
    return this.factory.argsFor(spec, name, options);
  }

  stats(names: readonly string[]): Promise<ContainerMemory[]> {
    return this.runtime.memoryUsage(names);
  }

  pause(name: string): Promise<void> {
    return this.runtime.pause(name);
  }

  resume(name: string): Promise<void> {
    return this.runtime.resume(name);
  }

  kill(names: readonly string[]): Promise<void> {
    return this.runtime.killAndRemove(names);
  }

  wait(name: string): Promise<SandboxExit> {
    return this.runtime.wait(name);
  }

  imageId(image: string): Promise<string | null> {
    return this.runtime.imageId(image);
  }

  listOwned(): Promise<OwnedContainer[]> {
    return this.runtime.listOwned();
  }

  /** Runs the probe; the last result per spec is kept for capabilities(). */
  async probe(spec: ContainerSpec): Promise<ProbeResult> {
    const result = await runEnforcementProbe(this.runtime, this.owner, spec);
    this.probed.set(specKey(spec), result);
    return result;
  }

  /** The last probe of this spec, without running one. */
  lastProbe(spec: ContainerSpec): ProbeResult | undefined {
    return this.probed.get(specKey(spec));
  }
}
