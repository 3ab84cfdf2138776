// What an engine is configured with (from settings) and started with (by its composer), the messages it
// refuses runs with, and the container spec a configuration means. Engine behaviour lives in engine.ts.
import path from 'node:path';
import type { FolderMount } from '../../shared/folders.js';
import { clampTimeout, type Limits } from '../../shared/limits.js';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/settings.js';
import type { ArtifactCaps } from './run/artifact-collector.js';
import type { BackendFeatures, ContainerSpec } from './backend.js';
import { fitFolders } from './folder-fit.js';
import { poolBounds } from './pool-policy.js';
import type { ExecutionRequest, ExecutionResult, ExecutionSummary } from '../../shared/execution.js';
import type { PoolSnapshot } from './warm-pool.js';
import type { RpcHandler } from './run/execution.js';
import type { RunEgress } from './run/egress-tunnel.js';
import type { EgressRecord } from '../../shared/egress-audit.js';
import { errorMessage } from '../../shared/errors.js';
import type { CheckpointPlan, CheckpointReport } from './run/frame-parser.js';
import type { SandboxContainer } from './run/sandbox-container.js';
import { seccompProfileFor, type SeccompMode } from './seccomp-profile.js';
import { DEFAULT_PRELOAD, preloadPlan } from './warm-imports.js';

export interface SubmitOptions {
  signal?: AbortSignal | undefined;
  rpc?: RpcHandler;
  session?: SessionBinding;
  /** Runs admitted elsewhere that will join the queue (runs installing packages) count toward queueLimit. */
  alsoWaiting?: number;
}

export interface ExecutionHandle {
  id: string;
  result: Promise<ExecutionResult>;
}

export interface EngineSnapshot {
  running: (ExecutionSummary & { startedAt: number | null; containerName?: string })[];
  queued: ExecutionSummary[];
  pool: PoolSnapshot;
}

/** What every surface shows of a request once it is queued. */
export function summaryOf(id: string, request: ExecutionRequest, limits: Limits): ExecutionSummary {
  return {
    id,
    code: request.code,
    servers: request.servers ?? [],
    ...(request.client ? { client: request.client } : {}),
    ...(request.packages ? { packages: request.packages } : {}),
    ...(request.session ? { session: request.session } : {}),
    timeoutSec: clampTimeout(limits, request.timeoutSec),
    queuedAt: Date.now(),
  };
}

export const PAUSED_MESSAGE = 'Sandbar is paused: new runs are refused until you resume them from the tray or the panel.';

export interface EngineConfig {
  limits: Limits;
  image: string;
  /** Containers always kept ready (setting poolSize). */
  poolSize: number;
  /** The most the pool grows to under load (setting poolMax; null: see poolBounds); absent: a fixed pool. */
  poolMax?: number | null;
  concurrency: number;
  /** 'runtime-default' is weaker and shown as such in health; Sandbar's profile is the default. */
  seccomp: SeccompMode;
  /** An OCI runtime the user picked (for example runsc for gVisor); null lets the container runtime choose. */
  ociRuntime: string | null;
  /** Runs allowed to wait; one more is refused at once as busy. Unbounded when absent (tests, tools). */
  queueLimit?: number;
  /** Host calls one run may have in flight; more wait in the sandbox's pipe. */
  maxToolCallsInFlight?: number;
  /** Caps on figures, displayed images and /workspace/out files (settings imageCapBytes, artifactMax*). */
  artifactCaps?: ArtifactCaps;
  /** Modules each pooled container imports before code arrives; null or absent: the default list. */
  preload?: readonly string[] | null;
  /** Host directory of package layers; a run with packages gets its own layer from it (and only that one). */
  packageLayers?: string;
  /** The user's folders, judged by the composer and fit for the backend in use: mounted in every sandbox. */
  folders?: readonly FolderMount[];
  /** The longest a session lasts (settings sessionMaxSec): pooled containers' runtime-side lifetime covers it. */
  sessionMaxSec?: number;
  /**
   * Time a run's calls may spend waiting for a person that does not count against its timeout, in all
   * (settings approvalTimeoutSec): a run's wall-clock cap is its timeout plus this.
   */
  maxHeldSec?: number;
}

/** What a refused run says when the queue is full: the word `busy`, and how long the queue is. */
export function busyMessage(queued: number, limit: number): string {
  return `Sandbar is busy: ${queued} run${queued === 1 ? ' is' : 's are'} already waiting (queue limit ${limit}). Try again when some have finished.`;
}

/**
 * Why the engine would turn a run away now, or null: shutting down, paused, or busy. Busy counts the queue
 * plus `alsoWaiting` (runs admitted elsewhere that will join it), less the free slots they will take: the
 * same rule as "all slots taken and the queue at its limit" when nothing waits elsewhere.
 */
export function admissionRefusal(
  state: { stopped: boolean; paused: boolean; queued: number; running: number },
  config: Pick<EngineConfig, 'concurrency' | 'queueLimit'>,
  alsoWaiting = 0,
): string | null {
  if (state.stopped) return 'Sandbar is shutting down; the run was not started';
  if (state.paused) return PAUSED_MESSAGE;
  const limit = config.queueLimit ?? Infinity;
  const ahead = state.queued + alsoWaiting;
  const free = Math.max(0, config.concurrency - state.running);
  return ahead - free >= limit ? busyMessage(ahead, limit) : null;
}

/**
 * How a session's call runs in the engine (the session registry provides it): its sandbox, or none yet on
 * the opening call (the engine takes a warm one from the pool and hands it over with `opened`).
 */
export type { CheckpointPlan, CheckpointReport };

export interface SessionBinding {
  readonly container: SandboxContainer | undefined;
  /** The opening call got its sandbox: it is the session's from now on. */
  opened(container: SandboxContainer): void;
  /** Before the code is handed over: thaw the paused sandbox. Throwing fails the call with that message. */
  beforeRun(container: SandboxContainer): Promise<void>;
  /**
   * The call ended, before its result is delivered. `state`: `open` when the sandbox waits for the next call,
   * `ended` when the code ended the session (runtime.end_session()), null when the call's end ended it.
   */
  afterRun(container: SandboxContainer | null, result: ExecutionResult, state: 'open' | 'ended' | null, checkpoints?: CheckpointReport): void;
  /** What this call asks of the agent's checkpoints (issue 28): the call to resume from, and how many to keep. */
  readonly checkpoints: CheckpointPlan;
  /** The call never ran (cancelled while queued, refused as busy or paused, shutting down): it is given back. */
  notRun(): void;
}

export interface EngineOptions {
  rpc?: RpcHandler;
  /** How long an idle pooled container lives before it is replaced. */
  poolMaxIdleMs?: number;
  /** How long a peak of concurrent calls keeps the pool grown (tests shorten it). */
  poolPeakWindowMs?: number;
  /**
   * One run, then the process exits (`sandbar run`): skip what only pays off later. No reaping at start
   * (its own container is removed with it; the next long-running instance reaps what others left) and no
   * image-id lookup for later starts' font lists, which would compete with this run's container for CPU.
   */
  oneShot?: boolean;
  /** Where Matplotlib font lists are kept per image (under SANDBAR_HOME); absent: in memory only. */
  fontCacheDir?: string;
  /** Each run's egress through the host (egress/egress-runs.ts): null while `egress.allow` is empty. */
  egress?: EgressSource;
}

/** Makes one run's egress proxy; `onRecord` gets each connection's record as it is made. Throws in words. */
export type EgressSource = (onRecord: (record: EgressRecord) => void) => Promise<RunEgress | null>;

/**
 * A run's egress, or why the run may not start: a backend that cannot carry egress refuses it in words
 * rather than running the code without the rules the person set (or with a way out they did not mean).
 */
export async function runEgressOf(source: EgressSource | undefined, features: Pick<BackendFeatures, 'label' | 'egress'>, onRecord: (record: EgressRecord) => void): Promise<RunEgress | null | { refused: string }> {
  if (!source) return null;
  try {
    const egress = await source(onRecord);
    if (egress && !features.egress) {
      egress.gateway.close();
      return { refused: `Egress through the host is on (settings egress.allow), but the ${features.label} backend cannot carry it: the run was not started. Use Podman or Docker, or empty egress.allow.` };
    }
    return egress;
  } catch (err) {
    return { refused: `Egress through the host could not be set up, so the run was not started: ${errorMessage(err)}` };
  }
}

/**
 * `inUse`: the default preloads recent runs imported (all of them when unknown). `features`: the backend's;
 * folders it cannot mount (writable on Docker, any on Kubernetes) are left out, and health names them.
 */
export function containerSpecOf(config: EngineConfig, inUse: readonly string[] = DEFAULT_PRELOAD, features?: Pick<BackendFeatures, 'label' | 'folders'>): ContainerSpec {
  const preload = preloadPlan(config.preload, inUse);
  const seccompProfile = seccompProfileFor(config.seccomp);
  const folders = config.folders?.length && features ? fitFolders(features, { mounts: [...config.folders], refused: [] }).mounts : (config.folders ?? []);
  return {
    image: config.image,
    limits: config.limits,
    ...(seccompProfile ? { seccompProfile } : {}),
    ...(config.ociRuntime ? { ociRuntime: config.ociRuntime } : {}),
    ...(preload ? { preload } : {}),
    ...(folders.length ? { folders } : {}),
  };
}

/**
 * The spec of a run that asked for packages: the pool's, plus its own layer, which only this run's sandbox
 * mounts (a fresh one, never pooled). Undefined when it needs none or layers are not kept here.
 */
export function packageSpecOf(spec: ContainerSpec, layersDir: string | undefined, key: string | null | undefined): ContainerSpec | undefined {
  if (!layersDir || !key) return undefined;
  if (!/^[0-9a-f]{32}$/.test(key)) throw new Error(`not a layer key: ${key}`);
  return { ...spec, packageLayer: { source: path.join(layersDir, key), key } };
}

/**
 * A session's sandbox mounts the layer its opening call asked for, and only that one: a later call that
 * needs another is refused (the session stays), or null.
 */
export function sessionLayerRefusal(mounted: string | undefined, wanted: string | null | undefined): string | null {
  if (!wanted || wanted === mounted) return null;
  return mounted
    ? "This session's sandbox was opened with other packages; a session keeps the packages of its first call. Start a new session (session=\"new\") with every package it needs."
    : "This session's sandbox was opened without packages; a session keeps the packages of its first call. Start a new session (session=\"new\") with every package it needs.";
}

/**
 * The shared pool's bounds: poolSize always ready, growing to poolMax under load. A config without poolMax
 * (tests, tools) keeps a fixed pool; a one-shot command (`sandbar run`) grows none it would not use.
 */
export function enginePoolBounds(config: Pick<EngineConfig, 'poolSize' | 'poolMax'>, oneShot: boolean): { size: number; max: number } {
  if (oneShot || config.poolMax === undefined) return { size: config.poolSize, max: config.poolSize };
  return { size: config.poolSize, max: poolBounds(config.poolSize, config.poolMax).max };
}

/** The engine's configuration from resolved settings. */
export function engineConfigOf(settings: Settings): EngineConfig {
  return {
    limits: settings.limits,
    image: settings.image,
    poolSize: settings.poolSize,
    poolMax: settings.poolMax,
    concurrency: settings.concurrency,
    seccomp: settings.seccomp,
    ociRuntime: settings.ociRuntime,
    queueLimit: settings.queueLimit,
    maxToolCallsInFlight: settings.maxToolCallsInFlight,
    preload: settings.preload,
    sessionMaxSec: settings.sessionMaxSec,
    maxHeldSec: settings.approvalTimeoutSec,
    artifactCaps: { imageCapBytes: settings.imageCapBytes, maxFiles: settings.artifactMaxFiles, maxBytes: settings.artifactMaxBytes },
  };
}

export const DEFAULT_ENGINE_CONFIG: EngineConfig = engineConfigOf(DEFAULT_SETTINGS);
