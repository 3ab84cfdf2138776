// Warm pods on Kubernetes, through the real @kubernetes/client-node and the fake API server: kept ahead of
// need, unattached and labelled; adopted by a run with a label patch that carries the resourceVersion it
// read (two claimers: one wins, the other starts cold); reaped when their owner died, never once adopted.
import { hostname } from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentBootModules } from '../../../electron/sandbox/agent/bootstrap.js';
import { newOwner } from '../../../electron/sandbox/backend.js';
import { containerSpecOf, Engine } from '../../../electron/sandbox/engine.js';
import { KubernetesBackend } from '../../../electron/sandbox/kubernetes/kubernetes-backend.js';
import { selectOrphans } from '../../../electron/sandbox/reaper.js';
import type { SandboxContainer } from '../../../electron/sandbox/run/sandbox-container.js';
import { DEFAULT_ENGINE_CONFIG } from '../../../electron/sandbox/engine-config.js';
import { waitFor } from '../helpers.js';
import { FakeKubeApi } from './fake-api-server.js';

describe('Kubernetes warm pods', () => {
  const api = new FakeKubeApi();
  const engines: Engine[] = [];
  const backends: KubernetesBackend[] = [];
  let kc: KubeConfig;
  const config = { ...DEFAULT_ENGINE_CONFIG, image: 'localhost/sandbar-python:test', poolSize: 2, seccomp: 'runtime-default' as const };
  const spec = containerSpecOf(config);
  // Resyncs are driven by the tests (sync()), so nothing depends on a timer.
  const backend = () => {
    const b = new KubernetesBackend(kc, { namespace: 'warm', startTimeoutMs: 15_000, warmPods: { maxIdleMs: 10 * 60_000, resyncMs: 3_600_000 } }, newOwner(), agentBootModules);
    backends.push(b);
    return b;
  };
  const podsWhere = (test: (labels: Record<string, string>) => boolean) =>
    [...api.pods.values()].filter((p) => test(p.pod.metadata.labels ?? {}));
  const warmOf = (b: KubernetesBackend) => podsWhere((l) => l['sandbar.warm'] === 'true' && l['sandbar.instance'] === b.owner.instanceId);
  const running = (entry: { proc?: unknown; pod: { status?: { phase?: string } } }) => entry.proc !== undefined && entry.pod.status?.phase === 'Running';

  beforeAll(async () => {
    await api.start();
    kc = new KubeConfig();
    kc.loadFromOptions(api.kubeconfig());
  });
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.dispose()));
    await Promise.all(backends.splice(0).map((b) => b.sharedPool.dispose()));
  });
  afterAll(async () => {
    await api.stop();
  });

  it('keeps the pool as unattached warm pods; a run adopts one by a conditional label patch, and the pool refills', async () => {
    const b = backend();
    const engine = new Engine(b, config);
    engines.push(engine);
    await engine.start();
    expect(await waitFor(() => warmOf(b).filter(running).length === 2, 10_000)).toBe(true);
    expect(await waitFor(() => engine.snapshot().pool.ready === 2, 10_000)).toBe(true);
    expect(engine.snapshot().pool).toMatchObject({ size: 2, ready: 2, starting: 0, lastError: null });
    const warm = warmOf(b).map((p) => p.pod.metadata.name as string);
    // Nothing is attached until a run adopts a pod: the cluster holds them, not this process.
    expect(api.requests.filter((q) => q.method === 'WS' && warm.some((n) => q.path.includes(`/pods/${n}/`)))).toEqual([]);
    const manifest = api.created.find((p) => p.metadata.name === warm[0])!;
    expect(manifest.metadata.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'sandbar', 'sandbar.warm': 'true', 'sandbar.instance': b.owner.instanceId });
    expect(manifest.metadata.labels['sandbar.spec']).toMatch(/^[0-9a-f]{16}$/);
    expect(manifest.spec.activeDeadlineSeconds).toBeGreaterThan(600);

    const handle = engine.submit({ code: 'print("warm")' });
    const r = await handle.result;
    expect(r.exitReason, r.message).toBe('success');
    expect(r.stdout).toBe('warm\n');
    expect(warm).toContain(r.containerName);
    const claim = api.conditional.find((c) => c.method === 'PATCH' && c.name === r.containerName);
    expect(claim).toMatchObject({ status: 200, labels: { 'sandbar.warm': 'claimed', 'sandbar.instance': b.owner.instanceId, 'sandbar.execution': handle.id } });
    // The adopted pod is deleted after its one run; the pool makes a new one.
    expect(await waitFor(() => !api.pods.has(r.containerName!), 5000)).toBe(true);
    expect(await waitFor(() => warmOf(b).filter(running).length === 2 && !warmOf(b).some((p) => p.pod.metadata.name === r.containerName), 10_000)).toBe(true);
  });

  it('drains warm pods of the old spec when limits change, and deletes its own when the engine stops', async () => {
    const b = backend();
    const engine = new Engine(b, { ...config, poolSize: 1 });
    engines.push(engine);
    await engine.start();
    expect(await waitFor(() => warmOf(b).filter(running).length === 1, 10_000)).toBe(true);
    const before = warmOf(b)[0]!.pod.metadata;
    engine.updateConfig({ limits: { ...config.limits, memory: '256m' } });
    expect(await waitFor(() => warmOf(b).length === 1 && warmOf(b)[0]!.pod.metadata.labels['sandbar.spec'] !== before.labels['sandbar.spec'], 10_000)).toBe(true);
    expect(api.pods.has(before.name)).toBe(false);
    expect(api.created.find((p) => p.metadata.name === warmOf(b)[0]!.pod.metadata.name)!.spec.containers[0].resources.limits.memory).toBe('256Mi');
    await engine.dispose();
    engines.splice(engines.indexOf(engine), 1);
    expect(warmOf(b)).toEqual([]);
  });

  it('two claimers race for one warm pod: the API server lets one win, the other starts a pod cold', async () => {
    const owner = backend();
    owner.sharedPool.configure(spec, { size: 1, maxRunSec: 120 });
    expect(await waitFor(() => warmOf(owner).filter(running).length === 1, 10_000)).toBe(true);
    const only = warmOf(owner)[0]!.pod.metadata.name as string;
    // Both have listed the same resourceVersion before either patch reaches the server.
    api.holdUntil('PATCH', 2);
    const [x, y] = [backend(), backend()];
    const got: SandboxContainer[] = await Promise.all([x.create(spec, { executionId: 'run-x' }), y.create(spec, { executionId: 'run-y' })]);
    try {
      expect(got.filter((c) => c.name === only)).toHaveLength(1);
      expect(got.filter((c) => c.name !== only)).toHaveLength(1);
      const patches = api.conditional.filter((c) => c.method === 'PATCH' && c.name === only).map((c) => c.status);
      expect(patches.sort()).toEqual([200, 409]);
      // The winner owns it now; the loser's pod is a fresh one of its own.
      const winner = got[0]!.name === only ? x : y;
      expect(api.pods.get(only)!.pod.metadata.labels).toMatchObject({ 'sandbar.warm': 'claimed', 'sandbar.instance': winner.owner.instanceId });
      const cold = got.find((c) => c.name !== only)!.name;
      expect(api.created.find((p) => p.metadata.name === cold)!.metadata.labels['sandbar.warm']).toBeUndefined();
      // Both sandboxes are booted and answer (the adopted one got its boot line over a fresh attach).
      expect(await Promise.all(got.map((c) => c.ready))).toEqual([expect.stringMatching(/^3\./), expect.stringMatching(/^3\./)]);
    } finally {
      await Promise.all([x.kill([got[0]!.name]), y.kill([got[1]!.name])]);
    }
    // The owner notices at its next resync and makes another.
    await owner.warmPods.sync();
    expect(await waitFor(() => warmOf(owner).some((p) => p.pod.metadata.name !== only), 10_000)).toBe(true);
  });

  it('reaps warm pods of a dead instance on this host at start, but never one adopted after the listing', async () => {
    const dead = { 'app.kubernetes.io/managed-by': 'sandbar', 'sandbar.instance': 'dead00000000', 'sandbar.pid': '999999999', 'sandbar.host': hostname(), 'sandbar.warm': 'true', 'sandbar.spec': '0123456789abcdef' };
    for (const name of ['sandbar-warm-a', 'sandbar-warm-b', 'sandbar-warm-c']) api.addPod({ metadata: { name, namespace: 'warm', labels: dead } });
    const b = backend();
    const orphans = selectOrphans(await b.listOwned(), b.owner).map((o) => o.name);
    expect(orphans).toEqual(expect.arrayContaining(['sandbar-warm-a', 'sandbar-warm-b', 'sandbar-warm-c']));
    // Another instance adopts warm-b between the reaper's listing and its delete.
    api.relabel('sandbar-warm-b', { 'sandbar.warm': 'claimed', 'sandbar.instance': 'live00000000', 'sandbar.pid': String(process.pid) });
    await b.kill(['sandbar-warm-a', 'sandbar-warm-b']);
    expect(api.pods.has('sandbar-warm-a')).toBe(false);
    expect(api.pods.has('sandbar-warm-b')).toBe(true);
    expect(api.conditional.filter((c) => c.method === 'DELETE' && c.name.startsWith('sandbar-warm-'))).toEqual([
      { method: 'DELETE', name: 'sandbar-warm-a', status: 200 },
      { method: 'DELETE', name: 'sandbar-warm-b', status: 409 },
    ]);
    // At start the engine's reaper takes the rest of the dead instance's warm pods.
    const engine = new Engine(b, { ...config, poolSize: 0 });
    engines.push(engine);
    await engine.start();
    expect(api.pods.has('sandbar-warm-c')).toBe(false);
    expect(api.pods.has('sandbar-warm-b')).toBe(true);
    await b.kill(['sandbar-warm-b']);
  });
});
