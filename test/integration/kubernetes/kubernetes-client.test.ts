// The Kubernetes backend's client path: the real @kubernetes/client-node against a loopback fake API
// server (HTTP, watch streams and the attach WebSocket). Runs go through the real Engine and agent.
import { hostname } from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentBootModules } from '../../../electron/sandbox/agent/bootstrap.js';
import { newOwner } from '../../../electron/sandbox/backend.js';
import { containerSpecOf, Engine } from '../../../electron/sandbox/engine.js';
import { KubernetesBackend } from '../../../electron/sandbox/kubernetes/kubernetes-backend.js';
import { DEFAULT_ENGINE_CONFIG } from '../../../electron/sandbox/engine-config.js';
import { AppError } from '../../../shared/errors.js';
import { waitFor } from '../helpers.js';
import { FakeKubeApi } from './fake-api-server.js';

describe('Kubernetes backend through the real client and a fake API server', () => {
  const api = new FakeKubeApi();
  const engines: Engine[] = [];
  let kc: KubeConfig;
  const config = { ...DEFAULT_ENGINE_CONFIG, image: 'localhost/sandbar-python:test', poolSize: 0, seccomp: 'runtime-default' as 'runtime-default' | 'sandbar' };
  const backend = (options: { seccompLocalhostProfile?: string } = {}) =>
    new KubernetesBackend(kc, { namespace: 'sandbar-test', startTimeoutMs: 15_000, ...options }, newOwner(), agentBootModules);
  const engineOn = async (b: KubernetesBackend, overrides: Partial<typeof config> = {}) => {
    const engine = new Engine(b, { ...config, ...overrides });
    engines.push(engine);
    await engine.start();
    return engine;
  };

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

  it('runs code in one pod over the attach stream, with the deny-all policy, and deletes the pod after', async () => {
    const engine = await engineOn(backend());
    const r = await engine.submit({ code: 'import sys\nprint(6 * 7)\nprint("to stderr", file=sys.stderr)' }).result;
    expect(r.exitReason, r.message).toBe('success');
    expect(r.stdout).toBe('42\n');
    expect(r.stderr).toBe('to stderr\n');
    const pod = api.created.find((p) => p.metadata.name === r.containerName)!;
    expect(pod.spec.restartPolicy).toBe('Never');
    expect(pod.spec.automountServiceAccountToken).toBe(false);
    expect(pod.spec.containers[0].securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(pod.spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(pod.metadata.labels['sandbar.instance']).toBe(engine.owner.instanceId);
    expect(api.policies.get('sandbar-test/sandbar-deny-all')?.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(api.requests.some((q) => q.method === 'WS' && q.path.includes(`/pods/${r.containerName}/attach?`) && q.path.includes('stdin=true'))).toBe(true);
    expect(await waitFor(() => !api.pods.has(r.containerName!), 5000)).toBe(true);
  });

  it('ends a run at its timeout by deleting the pod', async () => {
    const engine = await engineOn(backend());
    const r = await engine.submit({ code: 'while True:\n    pass', timeoutSec: 1 }).result;
    expect(r.exitReason).toBe('timeout');
    expect(await waitFor(() => !api.pods.has(r.containerName!), 5000)).toBe(true);
    expect(api.requests.some((q) => q.method === 'DELETE' && new URL(q.path, 'http://x').pathname.endsWith(`/pods/${r.containerName}`))).toBe(true);
  });

  it('reads the exit reason from terminated.reason: OOMKilled is a memory kill', async () => {
    const b = backend();
    const engine = await engineOn(b);
    const handle = engine.submit({ code: 'import time\nprint("up", flush=True)\ntime.sleep(30)', timeoutSec: 20 });
    let name = '';
    engine.subscribe((e) => {
      if (e.type === 'started' && e.id === handle.id) name = e.containerName;
    });
    expect(await waitFor(() => name !== '' && api.pods.get(name)?.proc !== undefined, 10_000)).toBe(true);
    const exit = b.wait(name);
    api.oomKill(name);
    const r = await handle.result;
    expect(r.exitReason).toBe('memory');
    expect(await exit).toEqual({ exitCode: 137, reason: 'oom', detail: 'OOMKilled' });
  });

  it('kills by name idempotently and reaps the pods of a dead Sandbar on this host only', async () => {
    const b = backend();
    await expect(b.kill(['sandbar-does-not-exist'])).resolves.toBeUndefined();
    const labels = (instance: string, pid: number, host: string) => ({
      'app.kubernetes.io/managed-by': 'sandbar', 'sandbar.instance': instance, 'sandbar.pid': String(pid), 'sandbar.host': host,
    });
    api.addPod({ metadata: { name: 'sandbar-orphan', namespace: 'sandbar-test', labels: labels('dead00000000', 999_999_999, hostname()) } });
    api.addPod({ metadata: { name: 'sandbar-elsewhere', namespace: 'sandbar-test', labels: labels('away00000000', 999_999_999, 'another-node') } });
    const owned = await b.listOwned();
    expect(owned.find((o) => o.name === 'sandbar-orphan')).toMatchObject({ instanceId: 'dead00000000', pid: 999_999_999, host: hostname() });
    await engineOn(b);
    expect(api.pods.has('sandbar-orphan')).toBe(false);
    expect(api.pods.has('sandbar-elsewhere')).toBe(true);
    await b.kill(['sandbar-elsewhere']);
  });

  it('says plainly when the image cannot be pulled, and leaves no pod', async () => {
    api.missingImages.add('registry.invalid/none:1');
    const b = backend();
    const err = await b.create({ ...containerSpecOf(config), image: 'registry.invalid/none:1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('image_missing');
    expect((err as AppError).message).toMatch(/ErrImagePull/);
    expect([...api.pods.values()].filter((p) => p.pod.spec?.containers?.[0]?.image === 'registry.invalid/none:1')).toEqual([]);
  });

  it('asks for Sandbar\'s seccomp profile as Localhost when it is on the node, and cannot pause', async () => {
    api.seccompProfiles.add('sandbar/sandbar-seccomp.json');
    const b = backend();
    const engine = await engineOn(b, { seccomp: 'sandbar' });
    const r = await engine.submit({ code: 'print("ok")' }).result;
    expect(r.stdout).toBe('ok\n');
    const pod = api.created.find((p) => p.metadata.name === r.containerName)!;
    expect(pod.spec.securityContext.seccompProfile).toEqual({ type: 'Localhost', localhostProfile: 'sandbar/sandbar-seccomp.json' });
    expect(b.seccompNote).toBeUndefined();
    await expect(b.pause(r.containerName!)).rejects.toThrow(/cannot pause/);
    api.seccompProfiles.clear();
  });

  it('falls back to RuntimeDefault when the node lacks the Localhost profile, and says so', async () => {
    const b = backend({ seccompLocalhostProfile: 'sandbar/missing.json' });
    const engine = await engineOn(b, { seccomp: 'sandbar' });
    const r = await engine.submit({ code: 'print("ok")' }).result;
    expect(r.exitReason, r.message).toBe('success');
    const asked = api.created.filter((p) => p.spec.securityContext.seccompProfile.type === 'Localhost' && p.spec.securityContext.seccompProfile.localhostProfile === 'sandbar/missing.json');
    expect(asked.length).toBe(1);
    expect(api.pods.has(asked[0]!.metadata.name)).toBe(false);
    expect(api.created.find((p) => p.metadata.name === r.containerName)!.spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(b.seccompNote).toMatch(/sandbar\/missing.json is not installed on the node.*RuntimeDefault/);
  });

  it('refuses a client without the token (the fake checks auth like a real server)', async () => {
    const anonymous = new KubeConfig();
    anonymous.loadFromOptions({ ...api.kubeconfig(), users: [{ name: 'fake-user' }] });
    const b = new KubernetesBackend(anonymous, { namespace: 'sandbar-test' }, newOwner());
    await expect(b.listOwned()).rejects.toThrow(/401|Unauthorized/);
  });
});
