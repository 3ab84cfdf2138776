// The one interface every sandbox backend implements (Podman and Docker through their CLI, Kubernetes
// through its API). The engine, the pool, the reaper and health talk to this, never to a CLI.
import type { PoolState } from '../../shared/execution.js';
import type { CapabilityMatrix, LimitState } from '../../shared/health.js';
import type { ContainerMemory } from './container-stats.js';
import type { ContainerSpec, StartOptions } from './container-factory.js';
import type { OwnedContainer } from './container-runtime.js';
import type { ProbeResult } from './probe.js';
import type { SandboxContainer } from './sandbox-container.js';

export type BackendKind = 'podman' | 'docker' | 'kubernetes';

/** How a sandbox ended, as the backend saw it (the engine's exit classifier refines it). */
export interface SandboxExit {
  exitCode: number | null;
  /** `completed`, `error`, `oom`, `deadline` (the backend's lifetime cap) or `unknown`. */
  reason: 'completed' | 'error' | 'oom' | 'deadline' | 'unknown';
  /** The backend's own words (`terminated.reason` on Kubernetes). */
  detail?: string;
}

export type { LimitState };

/** Probed, never declared (see capabilities.ts). */
export type BackendCapabilities = CapabilityMatrix;

export interface SandboxBackend {
  readonly kind: BackendKind;
  /** Probed on this machine with this spec, never declared; cached until the spec or backend changes. */
  capabilities(spec: ContainerSpec): Promise<BackendCapabilities>;
  /** Starts a sandbox, boots the agent and attaches our frame channel. `warm`: made ahead of need. */
  create(spec: ContainerSpec, options?: StartOptions & { warm?: boolean }): Promise<SandboxContainer>;
  /** What `create` would run (argv, or the manifest as JSON), for the panel's preview. */
  describe(spec: ContainerSpec, name: string, options?: StartOptions): Promise<string[]>;
  stats(names: readonly string[]): Promise<ContainerMemory[]>;
  pause(name: string): Promise<void>;
  resume(name: string): Promise<void>;
  /** SIGKILL and remove by name; names that are already gone are not an error. */
  kill(names: readonly string[]): Promise<void>;
  wait(name: string): Promise<SandboxExit>;
  /** Every sandbox any Sandbar instance made on this backend, for the reaper. */
  listOwned(): Promise<OwnedContainer[]>;
  /** The image's id where the backend can see it (Podman, Docker); Kubernetes pulls on nodes and cannot. */
  imageId?(image: string): Promise<string | null>;
  /** The enforcement probe: proves each limit with the real flags. */
  probe(spec: ContainerSpec): Promise<ProbeResult>;
  /**
   * Warm sandboxes kept in the runtime itself, for any instance to adopt (Kubernetes warm pods). While a
   * backend has one, the engine's in-process pool stays empty and this one keeps `size` ready instead.
   */
  readonly sharedPool?: SharedWarmPool;
}

export interface SharedWarmPool {
  configure(spec: ContainerSpec, options: { size: number; maxRunSec: number; onChange?: () => void }): void;
  snapshot(): PoolState;
  /** Stops refilling and removes this instance's unclaimed warm sandboxes. */
  dispose(): Promise<void>;
}

/** Pure: exit code to reason for engines that only give a code (137 = SIGKILL, usually the OOM killer). */
export function exitFromCode(exitCode: number | null): SandboxExit {
  if (exitCode === null) return { exitCode, reason: 'unknown' };
  if (exitCode === 0) return { exitCode, reason: 'completed' };
  if (exitCode === 137) return { exitCode, reason: 'oom', detail: 'killed (SIGKILL): memory limit or kill' };
  return { exitCode, reason: 'error' };
}
