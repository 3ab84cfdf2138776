// The Podman and Docker backend: the SandboxBackend interface over the engine's CLI (ContainerRuntime)
// and its container factory. Which of the two it is comes from the runtime found.
import { type BackendCapabilities, type BackendKind, type SandboxBackend, type SandboxExit, specKey, type ContainerSpec, type Owner, type StartOptions, type OwnedContainer, type ContainerMemory } from '../backend.js';
import { buildCapabilities } from '../capabilities.js';
import { ContainerFactory } from './container-factory.js';
import type { ContainerRuntime } from './container-runtime.js';
import { probeWith, type ProbeResult } from '../probe.js';
import type { SandboxContainer } from '../run/sandbox-container.js';
import { isolationOf } from '../sandbox-spec.js';

export class CliBackend implements SandboxBackend {
  private readonly factory: ContainerFactory;
  private probed = new Map<string, ProbeResult>();

  constructor(
    readonly runtime: ContainerRuntime,
    readonly owner: Owner,
    bootModules?: () => Record<string, string>,
  ) {
    this.factory = new ContainerFactory(runtime, owner, bootModules);
  }

  get kind(): BackendKind {
    return this.runtime.current()?.name ?? 'podman';
  }

  async capabilities(spec: ContainerSpec): Promise<BackendCapabilities> {
    const info = await this.runtime.resolve();
    const probe = this.probed.get(specKey(spec)) ?? (await this.probe(spec));
    const ociRuntime = spec.ociRuntime ?? this.runtime.current()?.ociRuntime;
    return buildCapabilities({ backend: info.name, isolation: isolationOf(ociRuntime), rootless: info.rootless, probe });
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

/** Structural: a SandboxBackend (as opposed to a bare ContainerRuntime). */
export function isSandboxBackend(value: unknown): value is SandboxBackend {
  return typeof (value as { create?: unknown }).create === 'function' && typeof (value as { listOwned?: unknown }).listOwned === 'function';
}

/** The enforcement probe on this runtime, outside any backend instance (health, the tier matrix). */
export async function runEnforcementProbe(runtime: ContainerRuntime, owner: Owner, spec: ContainerSpec): Promise<ProbeResult> {
  const factory = new ContainerFactory(runtime, owner);
  return probeWith({ create: (s, o) => factory.start(s, o), kill: (names) => runtime.killAndRemove(names) }, spec);
}
