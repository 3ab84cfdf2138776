// The Kubernetes backend: one Pod per sandbox through the official client. Our frame channel is the
// container's stdin/stdout over the attach WebSocket; the exit reason comes from `terminated.reason`.
import { randomBytes } from 'node:crypto';
import type { Attach, CoreV1Api, KubeConfig, V1Pod, Watch } from '@kubernetes/client-node';
import { AppError, errorMessage } from '../../../shared/errors.js';
import { createLogger } from '../../logger.js';
import { type BackendCapabilities, type BackendFeatures, type BackendHealth, type SandboxBackend, type SandboxExit, type SharedWarmPool, bootExtras, specKey, type ContainerSpec, type Owner, type StartOptions, type OwnedContainer, type ContainerMemory } from '../backend.js';
import { buildCapabilities } from '../capabilities.js';
import type { AttachedProcess } from '../run/attached-process.js';
import { attachPod } from './kubernetes-attach.js';
import { sandboxSpecOf, LABEL_HOST, LABEL_INSTANCE, LABEL_PID } from '../sandbox-spec.js';
import { bootSandbox, explainStartFailure } from '../run/boot-sandbox.js';
import { parseHumanSize } from '../../../shared/human-size.js';
import { denyAllNetworkPolicy, labelValue, MANAGED_BY, OWNED_SELECTOR, podManifest, SANDBOX_CONTAINER, type Json } from './pod-manifest.js';
import { probeWith, type ProbeResult } from '../probe.js';
import { hashLabel, KubernetesWarmPods, LABEL_SPEC, LABEL_WARM, type WarmPodApi } from './kubernetes-warm-pods.js';
import { exitFromPod, STUCK, watchPod, type PodState } from './kubernetes-pod-state.js';
import { isConflict, isNotFound, k8s } from './kubernetes-client.js';
import { agentSandboxApi, AgentSandboxPool, agentSandboxVersion, EXTENSIONS_GROUP, EXTENSIONS_VERSION, LABEL_CLAIM } from './agent-sandbox.js';
import type { SandboxContainer } from '../run/sandbox-container.js';
import { isolationOfClass, KUBERNETES_FEATURES, kubernetesHealth } from './kubernetes-health.js';

export interface KubernetesOptions {
  namespace: string;
  /** A RuntimeClass such as `gvisor`; its name containing gvisor or runsc marks the runsc tier. */
  runtimeClassName?: string;
  /** Where Sandbar's profile is on the nodes (relative to the kubelet's seccomp root); default KUBE_SECCOMP_PROFILE. */
  seccompLocalhostProfile?: string;
  /** How long a pod may take to be scheduled, pull and start. */
  startTimeoutMs?: number;
  /** Warm pods: how long one may sit idle before it is replaced, and how often the pool is re-read. */
  warmPods?: { maxIdleMs: number; resyncMs: number };
}

/** Sandbar's profile as installed on the nodes, under the kubelet's seccomp root (docs/KUBERNETES.md). */
export const KUBE_SECCOMP_PROFILE = 'sandbar/sandbar-seccomp.json';

export class KubernetesBackend implements SandboxBackend {
  readonly kind = 'kubernetes' as const;
  readonly features: BackendFeatures = KUBERNETES_FEATURES;
  private loaded: { kc: KubeConfig; core: CoreV1Api; attacher: Attach; watcher: Watch } | undefined;
  private readonly probed = new Map<string, ProbeResult>();
  private seccompFallback: string | undefined;
  private policyEnsured = false;
  /** resourceVersions of unclaimed warm pods as `listOwned` read them: the reaper deletes them only if unchanged. */
  private readonly warmVersions = new Map<string, string>();
  /** Warm pods in the cluster, shared with every instance using the namespace (see kubernetes-warm-pods.ts). */
  readonly warmPods: KubernetesWarmPods;
  /** agent-sandbox's SandboxWarmPool/SandboxClaim instead, once discovery found its CRDs (agent-sandbox.ts). */
  private agentSandbox: Promise<AgentSandboxPool | null> | undefined;
  private agentPool: AgentSandboxPool | undefined;
  /** Pod → the SandboxClaim it belongs to: deleting the claim is what ends such a pod for good. */
  private readonly claims = new Map<string, string>();
  /** The engine's view: whichever of the two discovery chose (configured once it is known). */
  readonly sharedPool: SharedWarmPool = {
    configure: (spec, options) => void this.activePool().then((pool) => pool.configure(spec, options)),
    snapshot: () => (this.agentPool ?? this.warmPods).snapshot(),
    dispose: async () => {
      await Promise.all([this.warmPods.dispose(), this.agentPool?.dispose()]);
    },
  };

  /** `config` may be a loader: the kubeconfig is read on first use, so a bad one fails runs, not start-up. */
  constructor(
    private readonly config: KubeConfig | (() => KubeConfig),
    private readonly options: KubernetesOptions,
    readonly owner: Owner,
    private readonly bootModules: () => Record<string, string> = () => ({}),
  ) {
    const log = createLogger('kubernetes', process.env);
    this.warmPods = new KubernetesWarmPods(this.warmPodApi(), owner, { ...options.warmPods, log: (message) => log.warn(message) });
  }

  private get api() {
    if (!this.loaded) {
      let kc: KubeConfig;
      try {
        kc = typeof this.config === 'function' ? this.config() : this.config;
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw new AppError('runtime_failed', `Could not load the kubeconfig: ${errorMessage(err)}`);
      }
      if (!kc.getCurrentCluster()) throw new AppError('runtime_failed', 'The kubeconfig names no current cluster.');
      const { Attach, CoreV1Api, Watch } = k8s();
      this.loaded = { kc, core: kc.makeApiClient(CoreV1Api), attacher: new Attach(kc), watcher: new Watch(kc) };
    }
    return this.loaded;
  }

  /** The API server in use (health shows it). */
  get server(): string {
    return this.api.kc.getCurrentCluster()?.server ?? '';
  }

  get namespace(): string {
    return this.options.namespace;
  }

  get runtimeClassName(): string | undefined {
    return this.options.runtimeClassName;
  }

  /** Why Localhost seccomp was given up for RuntimeDefault, if it was (the profile is not on the nodes). */
  get seccompNote(): string | undefined {
    return this.seccompFallback;
  }

  async capabilities(spec: ContainerSpec): Promise<BackendCapabilities> {
    const probe = this.probed.get(specKey(spec)) ?? (await this.probe(spec));
    // runAsNonRoot: every pod is unprivileged; the cluster's nodes are not ours to describe.
    return buildCapabilities({ backend: 'kubernetes', features: KUBERNETES_FEATURES, isolation: isolationOfClass(this.options.runtimeClassName), rootless: true, probe });
  }

  health(spec: ContainerSpec, options: { probe: boolean }): Promise<BackendHealth> {
    return kubernetesHealth({ server: () => this.server, namespace: this.namespace, runtimeClassName: this.runtimeClassName, probe: (s) => this.probe(s) }, spec, options);
  }

  /** The cluster is reachable once its kubeconfig loads; nodes pull the image themselves. */
  async quickHealth(): Promise<{ runtime: boolean; image: boolean }> {
    try {
      return { runtime: this.server !== '', image: true };
    } catch {
      return { runtime: false, image: false };
    }
  }

  manifest(spec: ContainerSpec, name: string, options: StartOptions & { warm?: boolean } = {}): Json {
    // Sandbar's profile (the seccomp setting) means Localhost on Kubernetes, unless the nodes lack it.
    const seccompProfile = spec.seccompProfile && !this.seccompFallback ? (this.options.seccompLocalhostProfile ?? KUBE_SECCOMP_PROFILE) : undefined;
    const sandbox = sandboxSpecOf(spec.limits, {
      image: spec.image,
      name,
      owner: this.owner,
      ...(options.executionId ? { executionId: options.executionId } : {}),
      ...(options.maxLifetimeSec ? { maxLifetimeSec: options.maxLifetimeSec } : {}),
      ulimits: null,
      ...(seccompProfile ? { seccompProfile } : {}),
    });
    return podManifest(sandbox, {
      namespace: this.options.namespace,
      ...(this.options.runtimeClassName ? { runtimeClassName: this.options.runtimeClassName } : {}),
      ...(options.warm ? { warm: true } : {}),
    });
  }

  async describe(spec: ContainerSpec, name: string, options: StartOptions = {}): Promise<string[]> {
    return [JSON.stringify(this.manifest(spec, name, options), null, 2)];
  }

  async create(spec: ContainerSpec, options: StartOptions & { warm?: boolean } = {}): Promise<SandboxContainer> {
    await this.ensureNetworkPolicy();
    const agent = await this.discoverAgentSandbox();
    const adopted = agent ? null : await this.warmPods.claim(spec, options.executionId);
    if (adopted) {
      this.warmVersions.delete(adopted);
      try {
        return await bootSandbox(adopted, await this.attach(adopted), { idleTimeoutSec: options.idleTimeoutSec ?? 600, modules: this.bootModules() });
      } catch {
        // A warm pod that cannot take its boot line is discarded; the run gets a cold one instead.
        await this.kill([adopted]).catch(() => {});
      }
    }
    let name = `sandbar-${randomBytes(6).toString('hex')}`;
    try {
      if (agent) {
        // The claim, not Sandbar, decides which pod: a warm one the controller adopts, or a new one.
        const claimed = await agent.claim(spec, options.executionId, name, this.options.startTimeoutMs ?? 120_000);
        this.claims.set(claimed.pod, claimed.claim);
        name = claimed.pod;
        await this.waitStarted(name);
      } else {
        await this.api.core.createNamespacedPod({ namespace: this.options.namespace, body: this.manifest(spec, name, options) as V1Pod });
        await this.waitStarted(name);
      }
    } catch (err) {
      await this.kill([name]).catch(() => {});
      // Localhost seccomp needs the profile on every node; without it, RuntimeDefault (said in health).
      if (spec.seccompProfile && !this.seccompFallback && /seccomp/i.test(errorMessage(err))) {
        this.seccompFallback = `The seccomp profile ${this.options.seccompLocalhostProfile ?? KUBE_SECCOMP_PROFILE} is not installed on the node (${errorMessage(err)}); pods use RuntimeDefault.`;
        return this.create(spec, options);
      }
      throw explainStartFailure(spec.image, errorMessage(err));
    }
    const proc = await this.attach(name);
    try {
      // Preloads and the font list travel in the boot payload, as for Podman: a pod mounts nothing of the host.
      return await bootSandbox(name, proc, { idleTimeoutSec: options.idleTimeoutSec ?? 600, modules: this.bootModules(), ...bootExtras(options) });
    } catch (err) {
      await this.kill([name]).catch(() => {});
      throw explainStartFailure(spec.image, errorMessage(err));
    }
  }

  private async waitStarted(name: string): Promise<void> {
    await this.waitForPod(name, (state) => {
      if (state.running) return true;
      if (state.terminated || state.phase === 'Failed' || state.phase === 'Succeeded') throw new Error(`the pod ended before it started (${state.terminated?.reason ?? state.podReason ?? state.phase})`);
      if (state.waitingReason && STUCK.test(state.waitingReason)) throw new Error(`${state.waitingReason}: ${state.waitingMessage ?? ''}`.trim());
      return false;
    }, this.options.startTimeoutMs ?? 120_000);
  }

  /** Watches one pod until `until` says done (or throws); resolves with the last state seen. */
  private waitForPod(name: string, until: (state: PodState) => boolean, timeoutMs: number): Promise<PodState> {
    return watchPod(this.api.watcher, this.options.namespace, name, until, timeoutMs);
  }

  /** Our frame channel: the container's stdin, stdout and stderr over the attach WebSocket. */
  private attach(name: string): Promise<AttachedProcess> {
    return attachPod(this.api.attacher, this.options.namespace, name, { wait: (n) => this.wait(n), remove: (n) => this.kill([n]) });
  }

  async wait(name: string): Promise<SandboxExit> {
    let exit: SandboxExit | null = null;
    await this.waitForPod(name, (state) => (exit = exitFromPod(state)) !== null, 24 * 3600_000);
    return exit ?? { exitCode: null, reason: 'unknown' };
  }

  async kill(names: readonly string[]): Promise<void> {
    await Promise.all(
      names.map(async (name) => {
        // An unclaimed warm pod (the reaper's) goes only if nobody adopted it since listOwned read it.
        const version = this.warmVersions.get(name);
        this.warmVersions.delete(name);
        const claim = this.claims.get(name);
        this.claims.delete(name);
        try {
          if (claim) await (this.agentPool ?? (await this.discoverAgentSandbox()))?.release(claim);
          if (version) await this.deleteIf(name, version);
          else await this.api.core.deleteNamespacedPod({ name, namespace: this.options.namespace, gracePeriodSeconds: 0 });
        } catch (err) {
          if (!isNotFound(err)) throw new AppError('runtime_failed', `Deleting pod ${name} failed: ${errorMessage(err)}`);
        }
      }),
    );
  }

  async listOwned(): Promise<OwnedContainer[]> {
    const list = await this.api.core.listNamespacedPod({ namespace: this.options.namespace, labelSelector: OWNED_SELECTOR });
    const hostLabel = labelValue(this.owner.host);
    this.warmVersions.clear();
    return list.items.map((pod) => {
      const labels = pod.metadata?.labels ?? {};
      if (labels[LABEL_WARM] === 'true' && pod.metadata?.name && pod.metadata.resourceVersion) this.warmVersions.set(pod.metadata.name, pod.metadata.resourceVersion);
      if (labels[LABEL_CLAIM] && pod.metadata?.name) this.claims.set(pod.metadata.name, labels[LABEL_CLAIM]);
      const pid = Number(labels[LABEL_PID]);
      const host = labels[LABEL_HOST] ?? '';
      return {
        name: pod.metadata?.name ?? '',
        state: pod.status?.phase ?? 'Unknown',
        instanceId: labels[LABEL_INSTANCE] ?? '',
        pid: Number.isInteger(pid) && pid > 0 ? pid : null,
        // Label values are sanitized; map ours back so the reaper recognises this host.
        host: host === hostLabel ? this.owner.host : host,
      };
    });
  }

  /** Memory per pod from metrics.k8s.io (metrics-server); none without it. */
  async stats(names: readonly string[]): Promise<ContainerMemory[]> {
    if (names.length === 0) return [];
    try {
      const metrics = await new (k8s().Metrics)(this.api.kc).getPodMetrics(this.options.namespace);
      return metrics.items.flatMap((item) => {
        if (!names.includes(item.metadata.name)) return [];
        const usage = item.containers.find((c) => c.name === SANDBOX_CONTAINER)?.usage.memory ?? '';
        const bytes = parseHumanSize(usage.replace(/i$/, 'iB'));
        return bytes === null ? [] : [{ name: item.metadata.name, memoryBytes: bytes }];
      });
    } catch {
      return [];
    }
  }

  async pause(name: string): Promise<void> {
    throw new AppError('runtime_failed', `Kubernetes cannot pause a pod (${name}); capabilities() reports pauseResume: false.`);
  }

  async resume(name: string): Promise<void> {
    throw new AppError('runtime_failed', `Kubernetes cannot resume a pod (${name}); capabilities() reports pauseResume: false.`);
  }

  async probe(spec: ContainerSpec): Promise<ProbeResult> {
    const result = await probeWith(this, spec);
    this.probed.set(specKey(spec), result);
    return result;
  }

  private async activePool(): Promise<SharedWarmPool> {
    return (await this.discoverAgentSandbox()) ?? this.warmPods;
  }

  /**
   * Whether kubernetes-sigs/agent-sandbox's CRDs are served here (asked once). A failed discovery is not
   * remembered: this call uses labelled pods, the next one asks again.
   */
  private discoverAgentSandbox(): Promise<AgentSandboxPool | null> {
    this.agentSandbox ??= (async () => {
      const { ApisApi, CustomObjectsApi } = k8s();
      const groups = await this.api.kc.makeApiClient(ApisApi).getAPIVersions();
      if (!groups.groups.some((g) => g.name === EXTENSIONS_GROUP)) return null;
      const custom = this.api.kc.makeApiClient(CustomObjectsApi);
      const resources = await custom.getAPIResources({ group: EXTENSIONS_GROUP, version: EXTENSIONS_VERSION });
      const version = agentSandboxVersion(groups, resources.resources.map((r) => r.name));
      if (!version) return null;
      const api = agentSandboxApi(custom, k8s(), this.options.namespace, version, {
        podFor: (spec) => this.templatePod(spec),
        specHash: (spec) => this.specHash(spec),
      });
      return (this.agentPool = new AgentSandboxPool(api, this.owner, this.options.namespace));
    })().catch(() => {
      this.agentSandbox = undefined;
      return null;
    });
    return this.agentSandbox;
  }

  /** Sandbar's pod as a template: no name, no owner (the controller owns warm pods; a claim adds the claimer). */
  private templatePod(spec: ContainerSpec): Json {
    const pod = this.manifest(spec, 'sandbar-template') as { metadata: Json; spec: Json };
    return { metadata: { labels: { ...MANAGED_BY, [LABEL_SPEC]: this.specHash(spec) } }, spec: pod.spec };
  }

  /** Deletes a pod only if it still has this resourceVersion; false when it changed (409) or is gone. */
  private async deleteIf(name: string, resourceVersion: string): Promise<boolean> {
    try {
      await this.api.core.deleteNamespacedPod({ name, namespace: this.options.namespace, gracePeriodSeconds: 0, body: { preconditions: { resourceVersion } } });
      return true;
    } catch (err) {
      if (isConflict(err) || isNotFound(err)) return false;
      throw err;
    }
  }

  private warmPodApi(): WarmPodApi {
    const namespace = () => this.options.namespace;
    return {
      list: async (labelSelector) => (await this.api.core.listNamespacedPod({ namespace: namespace(), labelSelector })).items,
      createWarm: async (spec, maxLifetimeSec) => {
        await this.ensureNetworkPolicy();
        const name = `sandbar-${randomBytes(6).toString('hex')}`;
        const body = this.manifest(spec, name, { warm: true, maxLifetimeSec }) as V1Pod;
        body.metadata!.labels![LABEL_SPEC] = this.specHash(spec);
        await this.api.core.createNamespacedPod({ namespace: namespace(), body });
        return name;
      },
      patchLabelsIf: async (name, resourceVersion, labels) => {
        try {
          // A merge patch carrying metadata.resourceVersion is a precondition: the server answers 409 if it changed.
          const { PatchStrategy, setHeaderOptions } = k8s();
          await this.api.core.patchNamespacedPod({ name, namespace: namespace(), body: { metadata: { resourceVersion, labels } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
          return true;
        } catch (err) {
          if (isConflict(err) || isNotFound(err)) return false;
          throw err;
        }
      },
      deleteIf: (name, resourceVersion) => this.deleteIf(name, resourceVersion),
      waitRunning: (name) => this.waitStarted(name),
      specHash: (spec) => this.specHash(spec),
      manifest: (spec) => this.manifest(spec, 'sandbar-warm', { warm: true }),
    };
  }

  /** Two pods are interchangeable when their manifests would be: spec, namespace, RuntimeClass, seccomp in use. */
  private specHash(spec: ContainerSpec): string {
    return hashLabel([specKey(spec), this.options.namespace, this.options.runtimeClassName ?? '', this.options.seccompLocalhostProfile ?? '', Boolean(this.seccompFallback)]);
  }

  /** The namespace's deny-all NetworkPolicy for Sandbar's pods (created once; an existing one is kept). */
  private async ensureNetworkPolicy(): Promise<void> {
    if (this.policyEnsured) return;
    const api = this.api.kc.makeApiClient(k8s().NetworkingV1Api);
    try {
      await api.createNamespacedNetworkPolicy({ namespace: this.options.namespace, body: denyAllNetworkPolicy(this.options.namespace) });
    } catch (err) {
      if (!isConflict(err)) throw new AppError('runtime_failed', `Creating the deny-all NetworkPolicy failed: ${errorMessage(err)}`);
    }
    this.policyEnsured = true;
  }
}
