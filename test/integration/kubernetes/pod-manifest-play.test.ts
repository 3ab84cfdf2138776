// What the generated Pod means, without a cluster: `podman kube play` runs the exact manifest the
// Kubernetes backend sends, with the enforcement probe as its command. Podman honours runAsUser,
// readOnlyRootFilesystem, dropped capabilities, no privilege escalation, memory limits and mounts the
// emptyDirs (as disk volumes: see below); `--network none` stands in for the deny-all NetworkPolicy (a CNI feature, not the pod's).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCapabilities } from '../../../electron/sandbox/capabilities.js';
import { KUBERNETES_FEATURES } from '../../../electron/sandbox/kubernetes/kubernetes-health.js';
import { sandboxSpecOf } from '../../../electron/sandbox/sandbox-spec.js';
import { containerUlimits, readHostHardLimits } from '../../../electron/sandbox/cli/host-limits.js';
import { podManifest } from '../../../electron/sandbox/kubernetes/pod-manifest.js';
import { parseProbeOutput, PROBE_MEMORY_MB, PROBE_PIDS } from '../../../electron/sandbox/probe.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';
import { runtimeBinary, runtimeName, sandbox, waitFor } from '../helpers.js';

const EXTRA = `
import json, os
mounts = {l.split()[4]: l.split(' - ')[1].split()[0] for l in open('/proc/self/mountinfo')}
def size(p):
    s = os.statvfs(p)
    return s.f_blocks * s.f_frsize
open('/workspace/x', 'w').write('ok')
print('SANDBAR_KUBE ' + json.dumps({'uid': os.getuid(), 'gid': os.getgid(), 'tmp': mounts.get('/tmp'), 'workspace': mounts.get('/workspace'),
    'tmp_size': size('/tmp'), 'workspace_size': size('/workspace'), 'cwd': os.getcwd(), 'home': os.environ.get('HOME')}), flush=True)
`;

describe.skipIf(!sandbox.available || runtimeName() !== 'podman' || sandbox.runtime?.ociRuntime)('the Pod manifest, run by podman kube play', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-kube-play-'));
  const name = `sandbar-kube${Date.now().toString(36)}`;
  afterAll(() => {
    spawnSync(runtimeBinary(), ['pod', 'rm', '-f', name], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds user, read-only root, capabilities and memory, mounts both emptyDirs; pids is Kubernetes\' documented gap', async () => {
    const limits = { ...DEFAULT_LIMITS, memory: `${PROBE_MEMORY_MB}m`, pids: PROBE_PIDS, tmpSize: '16m', workspaceSize: '32m' };
    const probe = `PROBE_MEMORY_MB = ${PROBE_MEMORY_MB}\nPROBE_PIDS = ${PROBE_PIDS}\n${EXTRA}\n${readFileSync('electron/sandbox/agent/probe.py', 'utf8')}`;
    const spec = {
      ...sandboxSpecOf(limits, { image: sandbox.image, name, owner: { instanceId: 'kubeplay', pid: process.pid, host: 'test' }, ulimits: null, maxLifetimeSec: 120 }),
      // The test image has no PATH in its config (kube play adds none): name the interpreter in full.
      command: ['/usr/bin/python3', '-c', probe],
    };
    const file = path.join(dir, 'pod.json');
    writeFileSync(file, JSON.stringify(podManifest(spec, { namespace: 'default' })));
    // Podman's default rlimits exceed this host's hard limits; kube play reads them only from containers.conf.
    const u = containerUlimits(readHostHardLimits()) ?? { nofile: 1024, nproc: 4096 };
    const conf = path.join(dir, 'containers.conf');
    writeFileSync(conf, `[containers]\ndefault_ulimits = ["nofile=${u.nofile}:${u.nofile}", "nproc=${u.nproc}:${u.nproc}"]\n`);
    const env = { ...process.env, CONTAINERS_CONF: conf };
    execFileSync(runtimeBinary(), ['kube', 'play', '--network', 'none', file], { env, stdio: 'pipe', timeout: 120_000 });
    const container = `${name}-sandbox`;
    const state = () => execFileSync(runtimeBinary(), ['inspect', '--format', '{{.State.Status}}', container], { encoding: 'utf8' }).trim();
    expect(await waitFor(() => state() === 'exited', 90_000, 500)).toBe(true);
    const logs = execFileSync(runtimeBinary(), ['logs', container], { encoding: 'utf8' });

    const facts = JSON.parse(/^SANDBAR_KUBE (.*)$/m.exec(logs)![1]!) as Record<string, unknown>;
    expect(facts).toMatchObject({ uid: 65534, gid: 65534, cwd: '/workspace', home: '/workspace' });
    // Both emptyDirs are mounted (and /workspace was writable under the read-only root). Podman 4.3's
    // kube play backs an emptyDir with a disk volume whatever its medium, so `medium: Memory` and
    // `sizeLimit` are pinned by the manifest's golden test, not here.
    expect(typeof facts.tmp).toBe('string');
    expect(typeof facts.workspace).toBe('string');

    const findings = parseProbeOutput(logs)!;
    expect(findings, logs).not.toBeNull();
    for (const key of ['memory', 'readOnlyRoot', 'capabilities', 'network'] as const) expect(findings[key].enforced, `${key}: ${findings[key].detail}`).toBe(true);
    expect(findings.capabilities.detail).toBe('CapEff=0 CapBnd=0 NoNewPrivs=1 uid=65534');
    // Kubernetes has no per-pod pids limit: the probe forks past it, and capabilities() says why.
    expect(findings.pids.enforced).toBe(false);
    const caps = buildCapabilities({ backend: 'kubernetes', features: KUBERNETES_FEATURES, isolation: 'runc', rootless: true, probe: { ok: true, findings } });
    expect(caps.limits.pids).toMatchObject({ state: 'exception', reason: expect.stringMatching(/no per-pod pids limit/) });
    expect(caps.limits.memory.state).toBe('enforced');
  });
});
