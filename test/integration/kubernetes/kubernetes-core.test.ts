// Settings choose the backend: `runtime: "kubernetes"` with a kubeconfig file sends runs to the cluster
// (the fake API server here), health describes it, and switching runtime back is live.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type SandbarCore } from '../../../electron/core.js';
import { KubernetesBackend } from '../../../electron/sandbox/kubernetes/kubernetes-backend.js';
import { sandbox } from '../helpers.js';
import { FAKE_TOKEN, FakeKubeApi } from './fake-api-server.js';

describe('runtime "kubernetes" in settings', () => {
  const api = new FakeKubeApi();
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-kube-core-'));
  const folder = mkdtempSync(path.join(tmpdir(), 'sandbar-kube-folder-'));
  let core: SandbarCore;

  beforeAll(async () => {
    await api.start();
    const kubeconfig = path.join(home, 'kubeconfig.yaml');
    writeFileSync(kubeconfig, [
      'apiVersion: v1', 'kind: Config', 'current-context: fake',
      'clusters:', `- name: fake`, `  cluster: { server: "http://127.0.0.1:${api.port}", insecure-skip-tls-verify: true }`,
      'users:', `- name: fake`, `  user: { token: "${FAKE_TOKEN}" }`,
      'contexts:', '- name: fake', '  context: { cluster: fake, user: fake, namespace: ignored }', '',
    ].join('\n'));
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({
      runtime: 'kubernetes', kubeconfig, kubernetesNamespace: 'team-a', kubernetesRuntimeClass: 'gvisor', poolSize: 0, image: sandbox.image, seccomp: 'runtime-default',
      folders: [{ name: 'data', path: folder }],
    }));
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, SANDBAR_HOME: home };
    core = createCore({ env });
    await core.start();
  });
  afterAll(async () => {
    await core?.dispose();
    await api.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  });

  it('runs in a pod in the configured namespace with the RuntimeClass, and health says which cluster', async () => {
    expect(core.engine.backend).toBeInstanceOf(KubernetesBackend);
    const r = await core.engine.submit({ code: 'print("from the cluster")' }).result;
    expect(r.exitReason, r.message).toBe('success');
    expect(r.stdout).toBe('from the cluster\n');
    const pod = api.created.find((p) => p.metadata.name === r.containerName)!;
    expect(pod.metadata.namespace).toBe('team-a');
    expect(pod.spec.runtimeClassName).toBe('gvisor');
    const report = await core.health({ probe: false });
    expect(report.runtime).toMatchObject({ name: 'kubernetes', path: `http://127.0.0.1:${api.port}`, ociRuntime: 'RuntimeClass gvisor', storageDriver: 'namespace team-a' });
    expect(report.capabilities?.isolation).toBe('runsc');
    expect(report.capabilities?.backend).toBe('kubernetes');
    // A pod cannot see this computer's folders: refused with the backend's reason, never in the pod.
    expect(report.checks.find((c) => c.id === 'folders')).toMatchObject({ status: 'warn', detail: expect.stringContaining('data') });
    expect(report.checks.find((c) => c.id === 'folders')?.detail).toContain('cannot be mounted on Kubernetes: a pod runs on a cluster node');
    expect(JSON.stringify(pod.spec)).not.toContain(folder);
    expect(r.folders).toBeUndefined();
  });

  it.skipIf(!sandbox.available)('switches back to the container runtime live when the setting changes', async () => {
    // A host-executing setting: in-process it is applied only as confirmed (the desktop's dialog does that).
    const patch = { runtime: sandbox.runtime!.path };
    core.settingsService.update(patch, { confirmed: core.settingsService.hostExecChanges(patch) });
    expect(core.engine.backend).not.toBeInstanceOf(KubernetesBackend);
    const before = api.created.length;
    const r = await core.engine.submit({ code: 'print("local")' }).result;
    expect(r.exitReason, r.message).toBe('success');
    expect(api.created.length).toBe(before);
  });
});
