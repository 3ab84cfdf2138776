// The one interface every sandbox backend implements (Podman and Docker through their CLI, Kubernetes
// through its API). The engine, the pool, the reaper and health talk to this, never to a CLI.
import type { PoolState } from '../../shared/execution.js';
import { ENFORCED_KEYS, type CapabilityMatrix, type EnforcedKey, type LimitState, type RuntimeReport } from '../../shared/health.js';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FolderMount } from '../../shared/folders.js';
import type { Limits } from '../../shared/limits.js';
import type { SandboxContainer } from './run/sandbox-container.js';

/** What the agent imports before `ready`; `optional`: a module the image lacks is skipped without a word.
 * (Here, in the contract, so warm-imports.ts and the backends share it without importing each other.) */
export interface PreloadPlan {
  modules: string[];
  optional: boolean;
}

/** Matplotlib's font list: its file name (fontlist-vNNN.json) and JSON text. */
export interface FontList {
  name: string;
  data: string;
}

/** One limit as the probe found it. */
export interface ProbeFinding {
  enforced: boolean;
  detail: string;
}

/** What the enforcement probe found (probe.ts runs it; every backend reports it). */
export type ProbeResult = { ok: true; findings: Record<EnforcedKey, ProbeFinding> } | { ok: false; error: string };

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
  /**
   * The one package layer this sandbox may read: a run's own, mounted read-only at
   * PACKAGE_LAYERS_MOUNT/<key>. Never in a pooled spec, so no sandbox sees the layers of other runs.
   */
  packageLayer?: { source: string; key: string };
  /** The user's folders (judged, resolved), each at /mnt/<name>; a change drains the pool like any other. */
  folders?: readonly FolderMount[];
}

export function specKey(spec: ContainerSpec): string {
  const { limits } = spec;
  return JSON.stringify([spec.image, spec.seccompProfile ?? '', spec.ociRuntime ?? '', limits.memory, limits.pids, limits.cpus, limits.tmpSize, limits.workspaceSize, limits.user, spec.preload ?? null, spec.packageLayer?.key ?? '', spec.folders ?? []]);
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

/** A sandbox any Sandbar instance made on a backend, as the reaper sees it. */
export interface OwnedContainer {
  name: string;
  instanceId: string;
  pid: number | null;
  host: string;
  state: string;
}

/** Memory in use by one sandbox. */
export interface ContainerMemory {
  name: string;
  memoryBytes: number;
}

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

/** Whether a backend can enforce one limit at all, whatever the host (a probe still proves it). */
export type LimitSupport = { enforced: true } | { enforced: false; reason: string };

/** Whether a backend mounts the user's folders, read-only and writable: `true`, or why not. */
export interface FolderSupport {
  readOnly: true | string;
  writable: true | string;
}

/**
 * What a backend can do, declared by the backend itself: callers read this, never its name or class, so a
 * new backend touches its own files only. Egress needs the agent's channel to carry its frames (Podman and Docker).
 */
export interface BackendFeatures {
  /** How messages name it ("Podman", "Docker", "Kubernetes"). */
  label: string;
  /** Freezes a sandbox between calls and thaws it (sessions need it). */
  pause: boolean;
  /** Mounts this machine's package layers read-only (`packages`). */
  packages: boolean;
  /** Keeps checkpoints of a session's calls (issue 28), per isolation tier: `true`, or why not in words. */
  checkpoints: Record<CapabilityMatrix['isolation'], true | string>;
  /** Mounts a folder of the user's into a sandbox (always nosuid,nodev,noexec), or why it cannot. */
  folders: FolderSupport;
  /** Lets a sandbox reach allowed hosts through Sandbar's egress proxy. */
  egress: boolean;
  /** A runtime-side cap on a sandbox's lifetime that holds even if Sandbar dies. */
  lifetimeBackstop: boolean;
  /** The limits it enforces; one it cannot says why (shown amber in health, never as a pass). */
  limits: Record<EnforcedKey, LimitSupport>;
}

/** Every limit enforced: what a backend declares unless it knows better. */
export function allLimitsEnforced(except: Partial<Record<EnforcedKey, string>> = {}): Record<EnforcedKey, LimitSupport> {
  return Object.fromEntries(ENFORCED_KEYS.map((k) => [k, except[k] ? { enforced: false, reason: except[k] } : { enforced: true }])) as Record<EnforcedKey, LimitSupport>;
}

/** What a backend found out about itself for health; health/ turns it into checks. */
export interface BackendHealth {
  /** Null when the backend cannot be reached (`runtimeError` says why). */
  runtime: RuntimeReport | null;
  runtimeError?: string;
  image: { name: string; present: boolean };
  /** Null when not asked for, or when it could not run (the image is missing). */
  probe: ProbeResult | null;
  capabilities?: CapabilityMatrix;
}

export interface SandboxBackend {
  readonly kind: BackendKind;
  /** The instance whose labels this backend puts on what it makes (the reaper spares them). */
  readonly owner: Owner;
  /** What it supports (read on every use: a CLI backend learns whether it is Podman or Docker). */
  readonly features: BackendFeatures;
  /** Runtime, image, probe and capability matrix, for the health report. */
  health(spec: ContainerSpec, options: { probe: boolean }): Promise<BackendHealth>;
  /** Cheap, for a timer: can the backend be reached, and is the image there? */
  quickHealth(image: string): Promise<{ runtime: boolean; image: boolean }>;
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
