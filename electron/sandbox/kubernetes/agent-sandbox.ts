// kubernetes-sigs/agent-sandbox, used only when discovery shows its CRDs in the cluster: Sandbar's pod as a
// SandboxTemplate, the pool as a SandboxWarmPool of that template (its controller keeps the pods), and a
// run's pod comes from a SandboxClaim (the controller adopts a warm pod or makes one; only it decides, so
// two claims never get the same pod). The pod is named by the Sandbox's `agents.x-k8s.io/pod-name`
// annotation (an adopted warm pod), else it has the Sandbox's own name.
// API as documented by the project: extensions.agents.x-k8s.io/v1alpha1 SandboxTemplate {spec.podTemplate},
// SandboxWarmPool {spec.replicas, spec.sandboxTemplateRef.name}, SandboxClaim {spec.sandboxTemplateRef,
// spec.lifecycle.shutdownTime/shutdownPolicy, spec.additionalPodMetadata.labels, status.sandbox.name};
// agents.x-k8s.io Sandbox (the group's preferred version).
import type * as K8sModule from '@kubernetes/client-node';
import type { CustomObjectsApi, V1APIGroupList } from '@kubernetes/client-node';
import { errorMessage } from '../../../shared/errors.js';
import type { PoolState } from '../../../shared/execution.js';
import type { SharedWarmPool, ContainerSpec, Owner } from '../backend.js';
import { LABEL_HOST, LABEL_INSTANCE, LABEL_PID } from '../sandbox-spec.js';
import { claimLabels, LABEL_WARM } from './kubernetes-warm-pods.js';
import { selectOrphans } from '../reaper.js';
import { labelValue, MANAGED_BY, type Json } from './pod-manifest.js';
import { podSpecMismatch } from './spec-match.js';

export const EXTENSIONS_GROUP = 'extensions.agents.x-k8s.io';
export const EXTENSIONS_VERSION = 'v1alpha1';
export const SANDBOX_GROUP = 'agents.x-k8s.io';
export const POD_NAME_ANNOTATION = 'agents.x-k8s.io/pod-name';
/** On a claimed pod: the SandboxClaim to delete (deleting only the pod would have the controller remake it). */
export const LABEL_CLAIM = 'sandbar.claim';
const NEEDED = ['sandboxtemplates', 'sandboxwarmpools', 'sandboxclaims'];
const FIRST_RECHECK_MS = 100;
const RESYNC_MS = 10_000;

/** Pure: the Sandbox version to read when both groups are served and the extensions have what we use; else null. */
export function agentSandboxVersion(groups: V1APIGroupList, extensionResources: readonly string[]): string | null {
  const ext = groups.groups.find((g) => g.name === EXTENSIONS_GROUP);
  const core = groups.groups.find((g) => g.name === SANDBOX_GROUP);
  if (!ext?.versions.some((v) => v.version === EXTENSIONS_VERSION) || !core) return null;
  if (!NEEDED.every((r) => extensionResources.includes(r))) return null;
  return core.preferredVersion?.version ?? core.versions[0]?.version ?? null;
}

const apiVersion = `${EXTENSIONS_GROUP}/${EXTENSIONS_VERSION}`;

/** Pure: the template is Sandbar's pod (labels and spec) for one spec hash, shared by every instance. */
export function sandboxTemplate(name: string, namespace: string, pod: Json): Json {
  const metadata = pod.metadata as { labels: Record<string, string> };
  return {
    apiVersion, kind: 'SandboxTemplate',
    metadata: { name, namespace, labels: { ...MANAGED_BY } },
    // The deny-all NetworkPolicy is Sandbar's own (it selects every managed-by pod); the controller's is not needed.
    spec: { podTemplate: { metadata: { labels: metadata.labels }, spec: pod.spec }, networkPolicyManagement: 'Unmanaged' },
  };
}

/** Labelled with its owner like a pod, so a later instance on the same host reaps it if the owner died. */
export function sandboxWarmPool(name: string, namespace: string, template: string, replicas: number, owner: Owner): Json {
  const { [LABEL_WARM]: _claimed, ...ownerLabels } = claimLabels(owner);
  return {
    apiVersion, kind: 'SandboxWarmPool',
    metadata: { name, namespace, labels: { ...MANAGED_BY, ...ownerLabels } },
    spec: { replicas, sandboxTemplateRef: { name: template } },
  };
}

/** The run's claim; shutdownTime is the backstop (the controller deletes the sandbox then, Sandbar or not). */
export function sandboxClaim(name: string, namespace: string, template: string, owner: Owner, executionId: string | undefined, shutdownTime: Date): Json {
  const labels = { ...MANAGED_BY, ...claimLabels(owner, executionId), [LABEL_CLAIM]: name };
  delete (labels as Record<string, string>)['sandbar.warm'];
  return {
    apiVersion, kind: 'SandboxClaim',
    metadata: { name, namespace, labels: { ...MANAGED_BY, [LABEL_INSTANCE]: labelValue(owner.instanceId) } },
    spec: {
      sandboxTemplateRef: { name: template },
      warmpool: 'default',
      lifecycle: { shutdownTime: shutdownTime.toISOString(), shutdownPolicy: 'Delete' },
      additionalPodMetadata: { labels },
    },
  };
}

/** What the pool needs from the cluster (the backend implements it with CustomObjectsApi). */
export interface AgentSandboxApi {
  /** Sandbar's pod for this spec, as the template's body; and the hash naming template and pools. */
  podFor(spec: ContainerSpec): Json;
  specHash(spec: ContainerSpec): string;
  create(plural: string, body: Json): Promise<void>;
  get(plural: string, name: string): Promise<Json | null>;
  replace(plural: string, name: string, patch: Json): Promise<void>;
  remove(plural: string, name: string): Promise<void>;
  list(plural: string, labelSelector: string): Promise<Json[]>;
  readSandbox(name: string): Promise<Json | null>;
}

const isConflict = (err: unknown) => (err as { code?: number }).code === 409;

export class AgentSandboxPool implements SharedWarmPool {
  private spec: ContainerSpec | undefined;
  private size = 0;
  private maxRunSec = 120;
  private onChange: (() => void) | undefined;
  private state: PoolState = { size: 0, ready: 0, starting: 0, lastError: null, refilling: false };
  private syncing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private recheckMs = FIRST_RECHECK_MS;
  private reaped = false;
  /** Templates created here or checked against Sandbar's pod (a template's name is its spec's hash). */
  private readonly checkedTemplates = new Set<string>();

  constructor(
    private readonly api: AgentSandboxApi,
    private readonly owner: Owner,
    private readonly namespace: string,
  ) {}

  private poolName(hash: string): string {
    return `sandbar-${labelValue(this.owner.instanceId)}-${hash}`.toLowerCase();
  }

  configure(spec: ContainerSpec, options: { size: number; maxRunSec: number; onChange?: () => void }): void {
    this.spec = spec;
    this.size = options.size;
    this.maxRunSec = options.maxRunSec;
    this.onChange = options.onChange;
    this.state = { ...this.state, size: options.size };
    this.recheckMs = FIRST_RECHECK_MS;
    void this.sync();
  }

  snapshot(): PoolState {
    return { ...this.state };
  }

  /** Ensures the template, sets this instance's warm pool to `size` for the current spec, removes its others. */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.syncOnce()).catch((err: unknown) => {
      this.state = { ...this.state, lastError: errorMessage(err) };
      this.onChange?.();
    });
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const spec = this.spec;
    if (!spec) return;
    if (!this.reaped) await this.reapDeadOwners();
    const hash = this.api.specHash(spec);
    await this.ensureTemplate(spec, hash);
    const name = this.poolName(hash);
    const mine = await this.api.list('sandboxwarmpools', `${LABEL_INSTANCE}=${labelValue(this.owner.instanceId)}`);
    await Promise.all(mine.filter((p) => (p.metadata as Json).name !== name).map((p) => this.api.remove('sandboxwarmpools', (p.metadata as Json).name as string)));
    let pool = mine.find((p) => (p.metadata as Json).name === name);
    if (this.size > 0 && !pool) await this.api.create('sandboxwarmpools', sandboxWarmPool(name, this.namespace, `sandbar-${hash}`, this.size, this.owner));
    else if (this.size === 0 && pool) await this.api.remove('sandboxwarmpools', name);
    else if (pool && (pool.spec as Json).replicas !== this.size) await this.api.replace('sandboxwarmpools', name, { spec: { replicas: this.size } });
    pool = this.size > 0 ? ((await this.api.get('sandboxwarmpools', name)) ?? undefined) : undefined;
    const ready = Number((pool?.status as Json | undefined)?.readyReplicas ?? 0);
    this.state = { size: this.size, ready, starting: Math.max(0, this.size - ready), lastError: null, refilling: false };
    this.onChange?.();
    // The controller fills the pool on its own time: look again soon while it is not full, then rarely.
    clearTimeout(this.timer);
    this.recheckMs = ready < this.size ? Math.min(this.recheckMs * 2, RESYNC_MS) : RESYNC_MS;
    if (this.size > 0) {
      this.timer = setTimeout(() => void this.sync(), this.recheckMs);
      this.timer.unref();
    }
  }

  /** Warm pools of dead instances on this host (killed, crashed): their pods would otherwise idle forever. */
  private async reapDeadOwners(): Promise<void> {
    const pools = await this.api.list('sandboxwarmpools', Object.entries(MANAGED_BY).map(([k, v]) => `${k}=${v}`).join(','));
    const hostLabel = labelValue(this.owner.host);
    const owned = pools.map((p) => {
      const labels = ((p.metadata as Json).labels ?? {}) as Record<string, string>;
      const pid = Number(labels[LABEL_PID]);
      return {
        name: (p.metadata as Json).name as string,
        state: '',
        instanceId: labels[LABEL_INSTANCE] ?? '',
        pid: Number.isInteger(pid) && pid > 0 ? pid : null,
        host: labels[LABEL_HOST] === hostLabel ? this.owner.host : (labels[LABEL_HOST] ?? ''),
      };
    });
    const self = { ...this.owner, instanceId: labelValue(this.owner.instanceId) };
    await Promise.all(selectOrphans(owned, self).map((o) => this.api.remove('sandboxwarmpools', o.name)));
    this.reaped = true;
  }

  /**
   * Creates the template, or accepts the one already there only if its pod is the one Sandbar would make:
   * anyone who may create SandboxTemplates in the namespace could have made `sandbar-<hash>` first, with
   * another image, a privileged securityContext or a service account token. Such a template is left
   * alone and not used; the error (health, the run) says why.
   */
  private async ensureTemplate(spec: ContainerSpec, hash: string): Promise<void> {
    const name = `sandbar-${hash}`;
    if (this.checkedTemplates.has(name)) return;
    const pod = this.api.podFor(spec);
    try {
      await this.api.create('sandboxtemplates', sandboxTemplate(name, this.namespace, pod));
    } catch (err) {
      if (!isConflict(err)) throw err;
      const existing = await this.api.get('sandboxtemplates', name);
      const podTemplate = ((existing?.spec as Json | undefined)?.podTemplate ?? {}) as Json;
      const why = podSpecMismatch(podTemplate.spec, pod.spec);
      if (why) throw new Error(`The SandboxTemplate ${name} already exists but ${why}; it is left alone and not used (delete it to let Sandbar make its own).`, { cause: err });
    }
    this.checkedTemplates.add(name);
  }

  /**
   * A pod for one run through a SandboxClaim: the controller adopts a warm one or makes one. Resolves with
   * the pod and claim names once the claim is bound (or throws after `timeoutMs`).
   */
  async claim(spec: ContainerSpec, executionId: string | undefined, name: string, timeoutMs: number): Promise<{ pod: string; claim: string }> {
    const hash = this.api.specHash(spec);
    await this.ensureTemplate(spec, hash);
    const shutdown = new Date(Date.now() + (this.maxRunSec + 600) * 1000);
    await this.api.create('sandboxclaims', sandboxClaim(name, this.namespace, `sandbar-${hash}`, this.owner, executionId, shutdown));
    const deadline = Date.now() + timeoutMs;
    for (let delay = 50; Date.now() < deadline; delay = Math.min(delay * 2, 1000)) {
      const claim = await this.api.get('sandboxclaims', name);
      const sandboxName = ((claim?.status as Json | undefined)?.sandbox as Json | undefined)?.name as string | undefined;
      if (sandboxName) {
        const sandbox = await this.api.readSandbox(sandboxName);
        const annotations = ((sandbox?.metadata as Json | undefined)?.annotations ?? {}) as Record<string, string>;
        // The controller replaces the adopted pod: watch it refill.
        this.recheckMs = FIRST_RECHECK_MS;
        void this.sync();
        return { pod: annotations[POD_NAME_ANNOTATION] || sandboxName, claim: name };
      }
      await new Promise((r) => setTimeout(r, delay));
    }
    await this.api.remove('sandboxclaims', name).catch(() => {});
    throw new Error(`the SandboxClaim ${name} was not bound to a sandbox within ${timeoutMs / 1000}s`);
  }

  /** Ends one run's sandbox: deleting the claim deletes its Sandbox and pod (a 404 is already done). */
  async release(claim: string): Promise<void> {
    await this.api.remove('sandboxclaims', claim);
  }

  /** Removes this instance's warm pool (its pods go with it); templates stay for other instances. */
  async dispose(): Promise<void> {
    clearTimeout(this.timer);
    this.size = 0;
    await this.sync();
  }
}

const isNotFound = (err: unknown) => (err as { code?: number }).code === 404;

/** AgentSandboxApi over the client's CustomObjectsApi (the extensions group; Sandboxes at `sandboxVersion`). */
export function agentSandboxApi(
  custom: CustomObjectsApi,
  client: Pick<typeof K8sModule, 'PatchStrategy' | 'setHeaderOptions'>,
  namespace: string,
  sandboxVersion: string,
  shape: Pick<AgentSandboxApi, 'podFor' | 'specHash'>,
): AgentSandboxApi {
  const at = (plural: string) => ({ group: EXTENSIONS_GROUP, version: EXTENSIONS_VERSION, namespace, plural });
  const orNull = async (read: () => Promise<unknown>): Promise<Json | null> => {
    try {
      return (await read()) as Json;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  };
  return {
    ...shape,
    create: async (plural, body) => {
      await custom.createNamespacedCustomObject({ ...at(plural), body });
    },
    get: (plural, name) => orNull(() => custom.getNamespacedCustomObject({ ...at(plural), name })),
    replace: async (plural, name, patch) => {
      await custom.patchNamespacedCustomObject({ ...at(plural), name, body: patch }, client.setHeaderOptions('Content-Type', client.PatchStrategy.MergePatch));
    },
    remove: async (plural, name) => {
      await orNull(() => custom.deleteNamespacedCustomObject({ ...at(plural), name }));
    },
    list: async (plural, labelSelector) => ((await custom.listNamespacedCustomObject({ ...at(plural), labelSelector })) as { items: Json[] }).items,
    readSandbox: (name) => orNull(() => custom.getNamespacedCustomObject({ group: SANDBOX_GROUP, version: sandboxVersion, namespace, plural: 'sandboxes', name })),
  };
}
