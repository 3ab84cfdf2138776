// When discovery shows kubernetes-sigs/agent-sandbox's CRDs, the Kubernetes backend's pool is a
// SandboxWarmPool of Sandbar's SandboxTemplate and every run's pod comes from a SandboxClaim; through the
// real @kubernetes/client-node against the fake API server and a stand-in for the CRDs' controller.
import { hostname } from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentBootModules } from '../../../electron/sandbox/agent/bootstrap.js';
import { newOwner } from '../../../electron/sandbox/backend.js';
import { Engine } from '../../../electron/sandbox/engine.js';
import { KubernetesBackend } from '../../../electron/sandbox/kubernetes/kubernetes-backend.js';
import { DEFAULT_ENGINE_CONFIG } from '../../../electron/sandbox/engine-config.js';
import { waitFor } from '../helpers.js';
import { FakeAgentSandbox } from './fake-agent-sandbox.js';
import { FakeKubeApi } from './fake-api-server.js';

describe('Kubernetes backend with agent-sandbox CRDs', () => {
  const api = new FakeKubeApi();
  const crds = new FakeAgentSandbox(api);
  const engines: Engine[] = [];
  let kc: KubeConfig;
  const config = { ...DEFAULT_ENGINE_CONFIG, image: 'localhost/sandbar-python:test', poolSize: 1, seccomp: 'runtime-default' as const };
  const engineOn = async (overrides: Partial<typeof config> = {}) => {
    const b = new KubernetesBackend(kc, { namespace: 'crd', startTimeoutMs: 15_000 }, newOwner(), agentBootModules);
    const engine = new Engine(b, { ...config, ...overrides });
    engines.push(engine);
    await engine.start();
    return { b, engine };
  };
  const objects = (plural: string) => [...crds.objects.entries()].filter(([k]) => k.startsWith(`${plural}/`)).map(([, o]) => o);

  beforeAll(async () => {
    await api.start();
    kc = new KubeConfig();
    kc.loadFromOptions(api.kubeconfig());
  });
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.dispose()));
  });
  afterAll(async () => {
    await api.stop();
  });

  it('keeps the pool as a SandboxWarmPool of Sandbar\'s template, and a run claims a warm pod through a SandboxClaim', async () => {
    const { b, engine } = await engineOn();
    expect(await waitFor(() => engine.snapshot().pool.ready === 1, 10_000)).toBe(true);
    const template = objects('sandboxtemplates')[0]!;
    expect(template.metadata.name).toMatch(/^sandbar-[0-9a-f]{16}$/);
    const podSpec = template.spec.podTemplate.spec;
    expect(podSpec.automountServiceAccountToken).toBe(false);
    expect(podSpec.containers[0].securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    // The controller owns warm pods: the template names no instance, so no reaper ever takes them.
    expect(template.spec.podTemplate.metadata.labels).not.toHaveProperty('sandbar.instance');
    const pool = objects('sandboxwarmpools')[0]!;
    expect(pool.spec).toEqual({ replicas: 1, sandboxTemplateRef: { name: template.metadata.name } });
    expect(pool.metadata.labels).toMatchObject({ 'sandbar.instance': b.owner.instanceId, 'sandbar.pid': String(process.pid), 'sandbar.host': expect.any(String) });
    const warmPod = [...api.pods.keys()].find((n) => n.startsWith(pool.metadata.name))!;

    const handle = engine.submit({ code: 'print("claimed")' });
    const r = await handle.result;
    expect(r.exitReason, r.message).toBe('success');
    expect(r.stdout).toBe('claimed\n');
    // The adopted warm pod, found through the Sandbox's pod-name annotation.
    expect(r.containerName).toBe(warmPod);
    const claim = crds.claims.at(-1)!;
    expect(claim.spec).toMatchObject({ sandboxTemplateRef: { name: template.metadata.name }, warmpool: 'default', lifecycle: { shutdownPolicy: 'Delete' } });
    expect(new Date(claim.spec.lifecycle.shutdownTime).getTime()).toBeGreaterThan(Date.now());
    expect(claim.spec.additionalPodMetadata.labels).toMatchObject({ 'sandbar.instance': b.owner.instanceId, 'sandbar.execution': handle.id, 'sandbar.claim': claim.metadata.name });
    // After the run the claim is deleted (its Sandbox and pod with it), and the controller refills the pool.
    expect(await waitFor(() => !crds.objects.has(`sandboxclaims/${claim.metadata.name}`) && !api.pods.has(warmPod), 5000)).toBe(true);
    expect(await waitFor(() => engine.snapshot().pool.ready === 1, 10_000)).toBe(true);
    // Sandbar made no labelled warm pods of its own, and created no pod directly.
    expect(api.created.filter((p) => p.metadata.labels?.['sandbar.warm'])).toEqual([]);
    expect(api.requests.filter((q) => q.method === 'POST' && /\/api\/v1\/namespaces\/crd\/pods$/.test(q.path))).toEqual([]);
  });

  it('with no pool, a claim gets a new pod named after its Sandbox; stopping removes the instance\'s warm pool', async () => {
    const { engine } = await engineOn({ poolSize: 0 });
    const r = await engine.submit({ code: 'print(1 + 1)' }).result;
    expect(r.exitReason, r.message).toBe('success');
    expect(r.stdout).toBe('2\n');
    const claim = crds.claims.at(-1)!;
    expect(r.containerName).toBe(claim.metadata.name);
    const second = await engineOn({ poolSize: 2 });
    expect(await waitFor(() => second.engine.snapshot().pool.ready === 2, 10_000)).toBe(true);
    const name = objects('sandboxwarmpools').find((p) => p.metadata.labels['sandbar.instance'] === second.b.owner.instanceId)!.metadata.name;
    await second.engine.dispose();
    expect(crds.objects.has(`sandboxwarmpools/${name}`)).toBe(false);
    expect([...api.pods.keys()].filter((n) => n.startsWith(name))).toEqual([]);
  });

  it('reaps a dead instance\'s claimed pod by deleting its SandboxClaim (the controller would remake a bare pod)', async () => {
    crds.objects.set('sandboxclaims/sandbar-dead-claim', { metadata: { name: 'sandbar-dead-claim' }, spec: {} });
    crds.objects.set('sandboxes/sandbar-dead-claim', { metadata: { name: 'sandbar-dead-claim', annotations: {} } });
    api.addPod({ metadata: { name: 'sandbar-dead-claim', namespace: 'crd', labels: {
      'app.kubernetes.io/managed-by': 'sandbar', 'sandbar.instance': 'dead00000000', 'sandbar.pid': '999999999', 'sandbar.host': hostname(), 'sandbar.claim': 'sandbar-dead-claim',
    } } });
    await engineOn({ poolSize: 0 });
    expect(crds.objects.has('sandboxclaims/sandbar-dead-claim')).toBe(false);
    expect(api.pods.has('sandbar-dead-claim')).toBe(false);
  });

  it('removes the warm pools of dead instances on this host, never those of live ones or other hosts', async () => {
    const pool = (name: string, instance: string, pid: number, host: string) =>
      crds.objects.set(`sandboxwarmpools/${name}`, { metadata: { name, namespace: 'crd', labels: { 'app.kubernetes.io/managed-by': 'sandbar', 'sandbar.instance': instance, 'sandbar.pid': String(pid), 'sandbar.host': host } }, spec: { replicas: 0, sandboxTemplateRef: { name: 'none' } } });
    pool('sandbar-dead-pool', 'dead00000000', 999_999_999, hostname());
    pool('sandbar-live-pool', 'live00000000', process.pid, hostname());
    pool('sandbar-away-pool', 'away00000000', 999_999_999, 'another-node');
    await engineOn({ poolSize: 0 });
    expect(await waitFor(() => !crds.objects.has('sandboxwarmpools/sandbar-dead-pool'), 5000)).toBe(true);
    expect(crds.objects.has('sandboxwarmpools/sandbar-live-pool')).toBe(true);
    expect(crds.objects.has('sandboxwarmpools/sandbar-away-pool')).toBe(true);
  });
});
