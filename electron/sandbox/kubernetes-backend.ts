// The Kubernetes backend: one Pod per sandbox through the official client. Our frame channel is the
// container's stdin/stdout over the attach WebSocket; the exit reason comes from `terminated.reason`.
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { createRequire } from 'node:module';
import type * as K8sModule from '@kubernetes/client-node';
import type { Attach, CoreV1Api, KubeConfig, V1Pod, Watch } from '@kubernetes/client-node';
import { AppError, errorMessage } from '../../shared/errors.js';
import type { BackendCapabilities, SandboxBackend, SandboxExit } from './backend.js';
import { buildCapabilities } from './capabilities.js';
import type { AttachedProcess, ProcessExit } from './command.js';
import { sandboxSpecOf, LABEL_HOST, LABEL_INSTANCE, LABEL_PID } from './container-args.js';
import { bootExtras, bootSandbox, explainStartFailure, specKey, type ContainerSpec, type Owner, type StartOptions } from './container-factory.js';
import type { OwnedContainer } from './container-runtime.js';
import { parseHumanSize, type ContainerMemory } from './container-stats.js';
import { denyAllNetworkPolicy, labelValue, OWNED_SELECTOR, podManifest, SANDBOX_CONTAINER, type Json } from './pod-manifest.js';
import { probeWith, type ProbeResult } from './probe.js';
import type { SandboxContainer } from './sandbox-container.js';

type KubernetesClient = typeof K8sModule;
let loadedClient: KubernetesClient | undefined;
/**
 * The client library takes most of a second to load, so only a kubernetes runtime pays for it: every
 * other command (run, doctor, serve) starts without it. Loaded synchronously (require of an ES module,
 * Node 20.19+), because backends are chosen synchronously.
 */
function k8s(): KubernetesClient {
  return (loadedClient ??= createRequire(import.meta.url)('@kubernetes/client-node') as KubernetesClient);
}

export interface KubernetesOptions {
  namespace: string;
  /** A RuntimeClass such as `gvisor`; its name containing gvisor or runsc marks the runsc tier. */
  runtimeClassName?: string;
  /** Where Sandbar's profile is on the nodes (relative to the kubelet's seccomp root); default KUBE_SECCOMP_PROFILE. */
  seccompLocalhostProfile?: string;
  /** How long a pod may take to be scheduled, pull and start. */
  startTimeoutMs?: number;
}

/** Loads a kubeconfig file, or the default chain (KUBECONFIG, ~/.kube/config, in-cluster). */
export function loadKubeConfig(file: string | null): KubeConfig {
  const kc = new (k8s().KubeConfig)();
  if (file) kc.loadFromFile(file);
  else kc.loadFromDefault();
  return kc;
}

const isNotFound = (err: unknown) => (err as { code?: number }).code === 404;
const isConflict = (err: unknown) => (err as { code?: number }).code === 409;

type PodState = { phase: string; running: boolean; terminated?: { exitCode: number; reason?: string }; waitingReason?: string; waitingMessage?: string; podReason?: string };

/** Pure: what a pod's status says about its one container. */
export function podState(pod: V1Pod): PodState {
  const status = pod.status ?? {};
  const container = status.containerStatuses?.find((c) => c.name === SANDBOX_CONTAINER);
  const terminated = container?.state?.terminated;
  const waiting = container?.state?.waiting;
  return {
    phase: status.phase ?? 'Pending',
    running: Boolean(container?.state?.running),
    ...(terminated ? { terminated: { exitCode: terminated.exitCode, ...(terminated.reason ? { reason: terminated.reason } : {}) } } : {}),
    ...(waiting?.reason ? { waitingReason: waiting.reason } : {}),
    ...(waiting?.message ? { waitingMessage: waiting.message } : {}),
    ...(status.reason ? { podReason: status.reason } : {}),
  };
}

/** Pure: `terminated.reason` (and the pod's own reason for the deadline) to a SandboxExit. */
export function exitFromPod(state: PodState): SandboxExit | null {
  if (state.podReason === 'DeadlineExceeded') return { exitCode: state.terminated?.exitCode ?? 137, reason: 'deadline', detail: 'DeadlineExceeded' };
  if (!state.terminated) return state.phase === 'Failed' || state.phase === 'Succeeded' ? { exitCode: null, reason: 'unknown', detail: state.podReason ?? state.phase } : null;
  const { exitCode, reason } = state.terminated;
  if (reason === 'OOMKilled') return { exitCode: 137, reason: 'oom', detail: reason };
  return { exitCode, reason: exitCode === 0 ? 'completed' : 'error', ...(reason ? { detail: reason } : {}) };
}

/** Waiting reasons that will not resolve by waiting longer. */
const STUCK = /ErrImagePull|ImagePullBackOff|InvalidImageName|CreateContainerConfigError|CreateContainerError|RunContainerError/;

/** Sandbar's profile as installed on the nodes, under the kubelet's seccomp root (docs/KUBERNETES.md). */
export const KUBE_SECCOMP_PROFILE = 'sandbar/sandbar-seccomp.json';

export class KubernetesBackend implements SandboxBackend {
  readonly kind = 'kubernetes' as const;
  private loaded: { kc: KubeConfig; core: CoreV1Api; attacher: Attach; watcher: Watch } | undefined;
  private readonly probed = new Map<string, ProbeResult>();
  private seccompFallback: string | undefined;
  private policyEnsured = false;

  /** `config` may be a loader: the kubeconfig is read on first use, so a bad one fails runs, not start-up. */
  constructor(
    private readonly config: KubeConfig | (() => KubeConfig),
    private readonly options: KubernetesOptions,
    readonly owner: Owner,
    private readonly bootModules: () => Record<string, string> = () => ({}),
  ) {}

  private get api() {
    if (!this.loaded) {
      let kc: KubeConfig;
      try {
        kc = typeof this.config === 'function' ? this.config() : this.config;
      } catch (err) {
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
    const gvisor = /gvisor|runsc/i.test(this.options.runtimeClassName ?? '');
    // runAsNonRoot: every pod is unprivileged; the cluster's nodes are not ours to describe.
    return buildCapabilities({ backend: 'kubernetes', isolation: gvisor ? 'runsc' : 'runc', rootless: true, probe });
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
    const name = `sandbar-${randomBytes(6).toString('hex')}`;
    try {
      await this.startPod(name, spec, options);
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

  private async startPod(name: string, spec: ContainerSpec, options: StartOptions & { warm?: boolean }): Promise<void> {
    await this.api.core.createNamespacedPod({ namespace: this.options.namespace, body: this.manifest(spec, name, options) as V1Pod });
    await this.waitForPod(name, (state) => {
      if (state.running) return true;
      if (state.terminated || state.phase === 'Failed' || state.phase === 'Succeeded') throw new Error(`the pod ended before it started (${state.terminated?.reason ?? state.podReason ?? state.phase})`);
      if (state.waitingReason && STUCK.test(state.waitingReason)) throw new Error(`${state.waitingReason}: ${state.waitingMessage ?? ''}`.trim());
      return false;
    }, this.options.startTimeoutMs ?? 120_000);
  }

  /** Watches one pod until `until` says done (or throws); resolves with the last state seen. */
  private waitForPod(name: string, until: (state: PodState) => boolean, timeoutMs: number): Promise<PodState> {
    return new Promise<PodState>((resolve, reject) => {
      let controller: { abort(): void } | undefined;
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        controller?.abort();
        fn();
      };
      const timer = setTimeout(() => settle(() => reject(new Error(`pod ${name} did not reach the expected state within ${timeoutMs / 1000}s`))), timeoutMs);
      const check = (pod: V1Pod) => {
        try {
          const state = podState(pod);
          if (until(state)) settle(() => resolve(state));
        } catch (err) {
          settle(() => reject(err));
        }
      };
      void this.api.watcher
        .watch(
          `/api/v1/namespaces/${this.options.namespace}/pods`,
          { fieldSelector: `metadata.name=${name}` },
          (type, pod: V1Pod) => {
            if (type === 'DELETED') settle(() => reject(new Error(`pod ${name} was deleted`)));
            else check(pod);
          },
          (err) => {
            if (!settled) settle(() => reject(err instanceof Error ? err : new Error(`the watch of pod ${name} ended`)));
          },
        )
        .then((c) => {
          controller = c;
          if (settled) c.abort();
        }, (err: unknown) => settle(() => reject(err instanceof Error ? err : new Error(String(err)))));
    });
  }

  /** Our frame channel: the container's stdin, stdout and stderr over the attach WebSocket. */
  private async attach(name: string): Promise<AttachedProcess> {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const ws = await this.api.attacher.attach(this.options.namespace, name, SANDBOX_CONTAINER, stdout, stderr, stdin, false);
    const exited: Promise<ProcessExit> = this.wait(name).then(
      (exit) => ({ exitCode: exit.exitCode, signal: null }),
      (err: unknown) => ({ exitCode: null, signal: null, spawnError: errorMessage(err) }),
    );
    // The status frame ends stdout; make sure it ends when the pod does, whatever the server sends. A
    // finished pod is deleted: Kubernetes keeps terminated pods until someone does.
    void exited.then(() => {
      if (!stdout.writableEnded) stdout.end();
      if (!stderr.writableEnded) stderr.end();
      ws.close();
      void this.kill([name]).catch(() => {});
    });
    return {
      pid: undefined,
      stdin,
      stdout,
      stderr,
      exited,
      kill: () => ws.close(),
    };
  }

  async wait(name: string): Promise<SandboxExit> {
    let exit: SandboxExit | null = null;
    await this.waitForPod(name, (state) => (exit = exitFromPod(state)) !== null, 24 * 3600_000);
    return exit ?? { exitCode: null, reason: 'unknown' };
  }

  async kill(names: readonly string[]): Promise<void> {
    await Promise.all(
      names.map(async (name) => {
        try {
          await this.api.core.deleteNamespacedPod({ name, namespace: this.options.namespace, gracePeriodSeconds: 0 });
        } catch (err) {
          if (!isNotFound(err)) throw new AppError('runtime_failed', `Deleting pod ${name} failed: ${errorMessage(err)}`);
        }
      }),
    );
  }

  async listOwned(): Promise<OwnedContainer[]> {
    const list = await this.api.core.listNamespacedPod({ namespace: this.options.namespace, labelSelector: OWNED_SELECTOR });
    const hostLabel = labelValue(this.owner.host);
    return list.items.map((pod) => {
      const labels = pod.metadata?.labels ?? {};
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
