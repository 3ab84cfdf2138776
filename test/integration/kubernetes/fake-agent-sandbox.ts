// kubernetes-sigs/agent-sandbox's CRDs and controller, as little of them as Sandbar uses, on the fake API
// server: discovery of both groups, SandboxTemplate / SandboxWarmPool / SandboxClaim objects, Sandboxes,
// and a controller that keeps each warm pool's pods and binds a claim to a warm pod (adopted: the pod
// keeps its name, the Sandbox's `agents.x-k8s.io/pod-name` annotation names it) or to a new pod named
// after the Sandbox.
import { randomBytes } from 'node:crypto';
import type { FakeKubeApi } from './fake-api-server.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const EXT = 'extensions.agents.x-k8s.io';
const CORE = 'agents.x-k8s.io';
const POOL_LABEL = 'agents.x-k8s.io/pool';

export class FakeAgentSandbox {
  /** `plural/name` → object, for assertions. */
  readonly objects = new Map<string, Json>();
  /** Claims as received. */
  readonly claims: Json[] = [];

  constructor(private readonly kube: FakeKubeApi) {
    kube.extension = (method, url, body) => this.handle(method, url, body);
  }

  private handle(method: string, url: URL, body: Json | undefined): { code: number; body: Json } | undefined {
    if (method === 'GET' && url.pathname === '/apis') {
      return { code: 200, body: { kind: 'APIGroupList', apiVersion: 'v1', groups: [
        { name: EXT, versions: [{ groupVersion: `${EXT}/v1alpha1`, version: 'v1alpha1' }], preferredVersion: { groupVersion: `${EXT}/v1alpha1`, version: 'v1alpha1' } },
        { name: CORE, versions: [{ groupVersion: `${CORE}/v1beta1`, version: 'v1beta1' }, { groupVersion: `${CORE}/v1alpha1`, version: 'v1alpha1' }], preferredVersion: { groupVersion: `${CORE}/v1beta1`, version: 'v1beta1' } },
      ] } };
    }
    if (method === 'GET' && url.pathname === `/apis/${EXT}/v1alpha1`) {
      const resources = ['sandboxtemplates', 'sandboxwarmpools', 'sandboxclaims'].map((name) => ({ name, namespaced: true, kind: name, verbs: ['create', 'get', 'list', 'delete', 'patch'] }));
      return { code: 200, body: { kind: 'APIResourceList', groupVersion: `${EXT}/v1alpha1`, resources } };
    }
    const m = new RegExp(`^/apis/(${EXT.replace(/\./g, '\\.')}|${CORE.replace(/\./g, '\\.')})/(v1alpha1|v1beta1)/namespaces/([^/]+)/([a-z]+)(?:/([^/]+))?$`).exec(url.pathname);
    if (!m) return undefined;
    const [, , , namespace, plural, name] = m as unknown as [string, string, string, string, string, string | undefined];
    const key = (n: string) => `${plural}/${n}`;
    if (method === 'POST') {
      if (this.objects.has(key(body!.metadata.name))) return status(409, 'AlreadyExists');
      const object = { ...body!, metadata: { ...body!.metadata, namespace } };
      this.objects.set(key(body!.metadata.name), object);
      if (plural === 'sandboxwarmpools') this.reconcile();
      if (plural === 'sandboxclaims') {
        this.claims.push(structuredClone(object));
        // The controller binds a little later, as a real one would.
        setTimeout(() => this.bind(object), 20);
      }
      return { code: 201, body: object };
    }
    if (method === 'GET' && !name) {
      const selector = url.searchParams.get('labelSelector') ?? '';
      const items = [...this.objects.entries()].filter(([k, o]) => k.startsWith(`${plural}/`) && matches(o, selector)).map(([, o]) => this.withStatus(plural, o));
      return { code: 200, body: { items } };
    }
    const object = name ? this.objects.get(key(name)) : undefined;
    if (!object) return status(404, 'NotFound');
    if (method === 'GET') return { code: 200, body: this.withStatus(plural, object) };
    if (method === 'PATCH') {
      object.spec = { ...object.spec, ...(body!.spec ?? {}) };
      if (plural === 'sandboxwarmpools') this.reconcile();
      return { code: 200, body: object };
    }
    if (method === 'DELETE') {
      this.objects.delete(key(name!));
      if (plural === 'sandboxwarmpools') for (const pod of this.poolPods(name!)) this.kube.removePod(pod.metadata.name);
      if (plural === 'sandboxclaims') {
        const sandbox = this.objects.get(`sandboxes/${name}`);
        this.objects.delete(`sandboxes/${name}`);
        if (sandbox) this.kube.removePod(sandbox.metadata.annotations?.['agents.x-k8s.io/pod-name'] ?? name);
      }
      return { code: 200, body: object };
    }
    return undefined;
  }

  private withStatus(plural: string, object: Json): Json {
    if (plural !== 'sandboxwarmpools') return object;
    const ready = this.poolPods(object.metadata.name).filter((p) => p.status?.phase === 'Running').length;
    return { ...object, status: { replicas: this.poolPods(object.metadata.name).length, readyReplicas: ready } };
  }

  private poolPods(pool: string): Json[] {
    return [...this.kube.pods.values()].map((e) => e.pod).filter((p) => p.metadata.labels?.[POOL_LABEL] === pool);
  }

  private template(name: string): Json {
    return this.objects.get(`sandboxtemplates/${name}`)!;
  }

  /** Keeps every warm pool at its replicas. */
  private reconcile(): void {
    for (const [key, pool] of this.objects) {
      if (!key.startsWith('sandboxwarmpools/')) continue;
      const template = this.template(pool.spec.sandboxTemplateRef.name);
      for (let n = this.poolPods(pool.metadata.name).length; n < pool.spec.replicas; n++) {
        this.kube.launchPod({
          apiVersion: 'v1', kind: 'Pod',
          metadata: { name: `${pool.metadata.name}-${randomBytes(3).toString('hex')}`, namespace: pool.metadata.namespace, labels: { ...template.spec.podTemplate.metadata.labels, [POOL_LABEL]: pool.metadata.name } },
          spec: structuredClone(template.spec.podTemplate.spec),
        });
      }
    }
  }

  /** A claim gets a running warm pod of its template if there is one (adopted), else a new pod. */
  private bind(claim: Json): void {
    const name = claim.metadata.name as string;
    if (!this.objects.has(`sandboxclaims/${name}`)) return;
    const templateName = claim.spec.sandboxTemplateRef.name as string;
    const extra = claim.spec.additionalPodMetadata?.labels ?? {};
    const pools = [...this.objects.entries()].filter(([k, p]) => k.startsWith('sandboxwarmpools/') && p.spec.sandboxTemplateRef.name === templateName).map(([, p]) => p.metadata.name as string);
    const warm = pools.flatMap((p) => this.poolPods(p)).find((p) => p.status?.phase === 'Running');
    const annotations: Record<string, string> = {};
    if (warm) {
      this.kube.relabel(warm.metadata.name, { [POOL_LABEL]: null, ...extra });
      annotations['agents.x-k8s.io/pod-name'] = warm.metadata.name;
    } else {
      const template = this.template(templateName);
      this.kube.launchPod({
        apiVersion: 'v1', kind: 'Pod',
        metadata: { name, namespace: claim.metadata.namespace, labels: { ...template.spec.podTemplate.metadata.labels, ...extra } },
        spec: structuredClone(template.spec.podTemplate.spec),
      });
    }
    this.objects.set(`sandboxes/${name}`, { apiVersion: `${CORE}/v1beta1`, kind: 'Sandbox', metadata: { name, namespace: claim.metadata.namespace, annotations } });
    claim.status = { sandbox: { name } };
    this.reconcile();
  }
}

function status(code: number, reason: string): { code: number; body: Json } {
  return { code, body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code, message: reason } };
}

function matches(object: Json, selector: string): boolean {
  return selector.split(',').filter(Boolean).every((term) => {
    const [key, value] = term.split('=');
    return object.metadata.labels?.[key!] === value;
  });
}
