// Warm pods on Kubernetes: pods started ahead of need, labelled `sandbar.warm=true` and with a hash of
// their spec, not attached (the agent waits on stdin for its boot line). Any Sandbar instance using the
// namespace may adopt one: the claim is a label patch carrying the resourceVersion it read, so the API
// server lets exactly one of two claimers win (the other gets 409 Conflict and tries the next pod or
// starts one cold). Each instance keeps `size` warm pods of its own; unclaimed ones are deleted only if
// unchanged since they were read, so a delete never takes a pod someone has just adopted.
import { createHash } from 'node:crypto';
import type { V1Pod } from '@kubernetes/client-node';
import { errorMessage } from '../../../shared/errors.js';
import type { PoolState } from '../../../shared/execution.js';
import type { SharedWarmPool, ContainerSpec, Owner } from '../backend.js';
import { LABEL_EXECUTION, LABEL_HOST, LABEL_INSTANCE, LABEL_PID } from '../sandbox-spec.js';
import { STUCK } from './kubernetes-pod-state.js';
import { labelValue, OWNED_SELECTOR } from './pod-manifest.js';
import { podSpecMismatch } from './spec-match.js';

export const LABEL_WARM = 'sandbar.warm';
export const LABEL_SPEC = 'sandbar.spec';
/** A warm pod's `sandbar.warm` after it was adopted (no longer matches the warm selector). */
export const CLAIMED = 'claimed';

/** What the warm pods need from the cluster (the backend implements it over @kubernetes/client-node). */
export interface WarmPodApi {
  list(labelSelector: string): Promise<V1Pod[]>;
  /** Creates an unattached pod of this spec labelled warm and with `specHash`. */
  createWarm(spec: ContainerSpec, maxLifetimeSec: number): Promise<string>;
  /** Merge-patches labels if the pod still has `resourceVersion`; false on 409 Conflict (someone else changed it). */
  patchLabelsIf(name: string, resourceVersion: string, labels: Record<string, string>): Promise<boolean>;
  /** Deletes the pod if it still has `resourceVersion`; false when it changed or is gone. */
  deleteIf(name: string, resourceVersion: string): Promise<boolean>;
  /** Resolves once the pod's container runs; rejects if it cannot start. */
  waitRunning(name: string): Promise<void>;
  /** What makes two pods interchangeable: the spec and everything else that shapes the manifest. */
  specHash(spec: ContainerSpec): string;
  /** The pod Sandbar would create for this spec: a pod is adopted only if its spec matches (spec-match.ts). */
  manifest(spec: ContainerSpec): { spec?: unknown };
}

/** Pure: a short label-safe hash of whatever decides a pod's manifest. */
export function hashLabel(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

/** Pure: the selector for unclaimed warm pods of one spec (anyone's), or of one owner (any spec). */
export function warmSelector(filter: { specHash?: string; instanceId?: string }): string {
  return [
    OWNED_SELECTOR,
    `${LABEL_WARM}=true`,
    ...(filter.specHash ? [`${LABEL_SPEC}=${filter.specHash}`] : []),
    ...(filter.instanceId ? [`${LABEL_INSTANCE}=${labelValue(filter.instanceId)}`] : []),
  ].join(',');
}

/** Pure: the labels an adopted pod gets. The claimer becomes its owner, so its reaper is the one that matters. */
export function claimLabels(owner: Owner, executionId?: string): Record<string, string> {
  return {
    [LABEL_WARM]: CLAIMED,
    [LABEL_INSTANCE]: labelValue(owner.instanceId),
    [LABEL_PID]: labelValue(String(owner.pid)),
    [LABEL_HOST]: labelValue(owner.host),
    ...(executionId ? { [LABEL_EXECUTION]: labelValue(executionId) } : {}),
  };
}

const running = (pod: V1Pod) => pod.status?.phase === 'Running' && Boolean(pod.status.containerStatuses?.some((c) => c.state?.running));
/** Ended, or stuck where waiting longer will not help (the image cannot be pulled, the container not made). */
const ended = (pod: V1Pod) =>
  pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed' || Boolean(pod.status?.containerStatuses?.some((c) => STUCK.test(c.state?.waiting?.reason ?? '')));
const created = (pod: V1Pod) => new Date(pod.metadata?.creationTimestamp ?? 0).getTime();

/** Pure: which warm pods to try, in order: running ones only, this instance's first (it refills at once), oldest first. */
export function claimOrder(pods: readonly V1Pod[], owner: Owner): V1Pod[] {
  const mine = (pod: V1Pod) => (pod.metadata?.labels?.[LABEL_INSTANCE] === labelValue(owner.instanceId) ? 0 : 1);
  return pods.filter(running).sort((a, b) => mine(a) - mine(b) || created(a) - created(b));
}

export interface WarmPodsOptions {
  /** A warm pod idle this long is replaced (its activeDeadlineSeconds must outlive idle time plus one run). */
  maxIdleMs: number;
  /** How often the pool is checked against the cluster (other instances adopt ours without telling us). */
  resyncMs: number;
  /** Where a refused pod is reported besides health. */
  log?: (message: string) => void;
}

export class KubernetesWarmPods implements SharedWarmPool {
  private spec: ContainerSpec | undefined;
  private size = 0;
  private maxRunSec = 120;
  private onChange: (() => void) | undefined;
  private state: PoolState = { size: 0, ready: 0, starting: 0, lastError: null, refilling: false };
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private again = false;
  private disposed = false;
  private readonly watching = new Set<string>();
  private readonly refused = new Set<string>();

  private readonly options: WarmPodsOptions;

  constructor(
    private readonly api: WarmPodApi,
    private readonly owner: Owner,
    options: Partial<WarmPodsOptions> = {},
  ) {
    this.options = { maxIdleMs: 5 * 60_000, resyncMs: 10_000, ...options };
  }

  configure(spec: ContainerSpec, options: { size: number; maxRunSec: number; onChange?: () => void }): void {
    const changed = this.spec !== undefined && this.api.specHash(this.spec) !== this.api.specHash(spec);
    this.spec = spec;
    this.size = options.size;
    this.maxRunSec = options.maxRunSec;
    this.onChange = options.onChange;
    this.disposed = false;
    this.state = { ...this.state, size: options.size, refilling: changed && options.size > 0 };
    this.emit();
    void this.sync();
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.sync(), this.options.resyncMs);
    this.timer.unref();
  }

  snapshot(): PoolState {
    return { ...this.state };
  }

  /**
   * Adopts one running warm pod of this spec (anyone's, even with no pool of our own: a list is cheap next
   * to a pod start) for a run. Null when there is none, or every candidate was taken by another claimer
   * first: the caller starts a pod cold.
   */
  async claim(spec: ContainerSpec, executionId?: string): Promise<string | null> {
    let candidates: V1Pod[];
    try {
      candidates = claimOrder(await this.api.list(warmSelector({ specHash: this.api.specHash(spec) })), this.owner);
    } catch {
      return null;
    }
    // Labels prove nothing: a pod anyone labelled warm is adopted only if it is the pod we would make. The
    // others are set aside first, so a few foreign pods cannot crowd out the ones worth trying.
    const expected = this.api.manifest(spec).spec;
    const ours = candidates.filter((pod) => {
      const why = podSpecMismatch(pod.spec, expected);
      if (why) this.refuse(pod.metadata?.name ?? '(unnamed)', why);
      return !why;
    });
    for (const pod of ours.slice(0, 5)) {
      const name = pod.metadata?.name;
      const version = pod.metadata?.resourceVersion;
      if (!name || !version) continue;
      if (await this.api.patchLabelsIf(name, version, claimLabels(this.owner, executionId)).catch(() => false)) {
        void this.sync();
        return name;
      }
    }
    return null;
  }

  /** Brings this instance's warm pods to `size`: replaces stale, ended or other-spec ones, creates the missing. */
  sync(): Promise<void> {
    if (this.syncing) {
      this.again = true;
      return this.syncing;
    }
    this.syncing = this.syncOnce()
      .catch((err: unknown) => {
        this.state = { ...this.state, lastError: errorMessage(err) };
        this.emit();
      })
      .finally(() => {
        this.syncing = undefined;
        if (this.again && !this.disposed) {
          this.again = false;
          void this.sync();
        }
      });
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const spec = this.spec;
    if (!spec) return;
    const hash = this.api.specHash(spec);
    const expected = this.api.manifest(spec).spec;
    const now = Date.now();
    const keep: V1Pod[] = [];
    const drop: V1Pod[] = [];
    let refusal: string | null = null;
    for (const pod of await this.api.list(warmSelector({ instanceId: this.owner.instanceId }))) {
      // Not the pod we would make (made or changed by someone else): left alone, neither counted nor deleted.
      const why = pod.metadata?.labels?.[LABEL_SPEC] === hash ? podSpecMismatch(pod.spec, expected) : null;
      if (why) {
        refusal = this.refuse(pod.metadata?.name ?? '(unnamed)', why);
        continue;
      }
      const stale = pod.metadata?.labels?.[LABEL_SPEC] !== hash || ended(pod) || now - created(pod) > this.options.maxIdleMs;
      (stale || this.disposed ? drop : keep).push(pod);
    }
    while (keep.length > (this.disposed ? 0 : this.size)) drop.push(keep.pop()!);
    await Promise.all(drop.map((pod) => this.api.deleteIf(pod.metadata!.name!, pod.metadata!.resourceVersion ?? '').catch(() => false)));
    const missing = this.disposed ? 0 : this.size - keep.length;
    const idleSec = Math.ceil(this.options.maxIdleMs / 1000);
    const made = await Promise.all(
      Array.from({ length: Math.max(0, missing) }, () => this.api.createWarm(spec, idleSec + this.maxRunSec + 60)),
    );
    const ready = keep.filter(running).length;
    this.state = { size: this.size, ready, starting: keep.length - ready + made.length, lastError: refusal, refilling: this.state.refilling && ready < this.size };
    this.emit();
    // A new pod is worth a look as soon as it runs, not at the next resync.
    for (const name of [...made, ...keep.filter((p) => !running(p)).map((p) => p.metadata!.name!)]) this.watchStart(name);
  }

  private watchStart(name: string): void {
    if (this.watching.has(name)) return;
    this.watching.add(name);
    void this.api
      .waitRunning(name)
      .then(() => this.sync(), (err: unknown) => {
        // Our own delete (drain, dispose) ends the watch too; that is no error. A stuck pull is, and the
        // next resync replaces the pod (no retry loop faster than that).
        if (!/was deleted/.test(errorMessage(err))) this.fail(err);
      })
      .finally(() => this.watching.delete(name));
  }

  /** Says why a pod labelled as a warm pod was not used: in the pool's state (Health) and the log. */
  private refuse(name: string, why: string): string {
    const message = `Warm pod ${name} was not adopted: ${why}. It is left alone.`;
    // Logged once per pod (it is seen again at every claim and resync); health keeps the latest.
    if (!this.refused.has(name)) {
      if (this.refused.size >= 1000) this.refused.clear();
      this.refused.add(name);
      this.options.log?.(message);
    }
    this.state = { ...this.state, lastError: message };
    this.emit();
    return message;
  }

  private fail(err: unknown): void {
    this.state = { ...this.state, lastError: errorMessage(err) };
    this.emit();
  }

  private emit(): void {
    if (!this.disposed) this.onChange?.();
  }

  /** Stops refilling and deletes this instance's unclaimed warm pods (ones adopted meanwhile are left alone). */
  async dispose(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.disposed = true;
    if (this.syncing) await this.syncing;
    this.again = false;
    await this.sync();
  }
}
