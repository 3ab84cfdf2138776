// One SandboxSpec, three translators: Podman argv, Docker argv, Kubernetes Pod. The golden files are the
// whole output, reviewed by hand; the assertions below pin what each one must mean.
import { describe, expect, it } from 'vitest';
import { BOOTSTRAP_SOURCE } from '../../../electron/sandbox/agent/bootstrap.js';
import { SANDBOX_ENV, assertSafeSpec, isolationOf, type SandboxSpec } from '../../../electron/sandbox/sandbox-spec.js';
import { dockerArgs } from '../../../electron/sandbox/cli/docker-args.js';
import { denyAllNetworkPolicy, labelValue, podManifest, toQuantity } from '../../../electron/sandbox/kubernetes/pod-manifest.js';
import { podmanArgs } from '../../../electron/sandbox/cli/podman-args.js';

const spec = (extra: Partial<SandboxSpec> = {}): SandboxSpec => ({
  name: 'sandbar-0123456789ab',
  image: 'localhost/sandbar-python:test',
  limits: { memory: '512m', pids: 128, cpus: 1.5, tmpSize: '64m', workspaceSize: '128m' },
  user: '65534:65534',
  labels: { 'sandbar.instance': 'inst1', 'sandbar.pid': '4242', 'sandbar.host': 'my host!' },
  seccompProfile: '/opt/sandbar/seccomp.json',
  lifetime: { maxLifetimeSec: 900 },
  isolation: 'runc',
  ulimits: { nofile: 4096, nproc: 4096 },
  env: SANDBOX_ENV,
  command: ['python3', '-c', BOOTSTRAP_SOURCE],
  ...extra,
});

/** A nested field of a manifest (`spec.containers.0.tty`); a key not found whole takes the rest of the path (label keys have dots). */
function get(value: unknown, path: string): unknown {
  const keys = path.split('.');
  let v = value;
  for (let i = 0; i < keys.length; i++) {
    const obj = (v ?? {}) as Record<string, unknown>;
    const key = keys[i]!;
    if (key in obj) v = obj[key];
    else return obj[keys.slice(i).join('.')];
  }
  return v;
}

const gvisor = () => spec({ isolation: 'runsc', ociRuntime: 'runsc' });

/** Golden files hold the argv with the (long) bootstrap shortened, one element per line. */
const golden = (argv: string[]) => `${argv.map((a) => (a === BOOTSTRAP_SOURCE ? '<BOOTSTRAP_SOURCE>' : a)).join('\n')}\n`;

describe('golden output', () => {
  it('podman', async () => {
    await expect(golden(podmanArgs(spec()))).toMatchFileSnapshot('golden/podman.argv');
  });
  it('podman + gVisor', async () => {
    await expect(golden(podmanArgs(gvisor()))).toMatchFileSnapshot('golden/podman-runsc.argv');
  });
  it('docker', async () => {
    await expect(golden(dockerArgs(spec()))).toMatchFileSnapshot('golden/docker.argv');
  });
  it('docker + gVisor', async () => {
    await expect(golden(dockerArgs(gvisor()))).toMatchFileSnapshot('golden/docker-runsc.argv');
  });
  it('kubernetes pod', async () => {
    const pod = podManifest({ ...spec(), command: ['python3', '-c', '<BOOTSTRAP_SOURCE>'], seccompProfile: 'sandbar-seccomp.json' }, { namespace: 'sandbar', runtimeClassName: 'gvisor' });
    await expect(`${JSON.stringify(pod, null, 2)}\n`).toMatchFileSnapshot('golden/pod.json');
  });
  it('kubernetes deny-all network policy', async () => {
    await expect(`${JSON.stringify(denyAllNetworkPolicy('sandbar'), null, 2)}\n`).toMatchFileSnapshot('golden/network-policy.json');
  });
});

describe.each([
  ['podman', podmanArgs],
  ['docker', dockerArgs],
] as const)('%s argv', (_name, translate) => {
  it('ends the options with `--`, then the image and the command, so no string there is a flag', () => {
    const argv = translate(spec());
    expect(argv.slice(-5)).toEqual(['--', 'localhost/sandbar-python:test', 'python3', '-c', BOOTSTRAP_SOURCE]);
    expect(argv.indexOf('--')).toBe(argv.length - 5);
  });

  it('refuses an image that would read as a flag, and a name or label with a newline', () => {
    expect(() => translate(spec({ image: '--privileged' }))).toThrow(/Refused image "--privileged": .*not a flag/);
    expect(() => translate(spec({ image: 'ok image' }))).toThrow(/Refused image "ok image": .*without spaces/);
    expect(() => translate(spec({ name: '-rm' }))).toThrow(/not a sandbox name/);
    expect(() => translate(spec({ labels: { 'a\nb': 'x' } }))).toThrow(/not a label/);
    expect(() => translate(spec({ user: '0:0' }))).toThrow(/non-root/);
    expect(() => translate(spec({ ociRuntime: 'runc --debug' }))).toThrow(/not an OCI runtime/);
  });

  it('sets a pids limit under runc and none under gVisor (guest processes are not host pids)', () => {
    expect(translate(spec())).toContain('--pids-limit');
    expect(translate(gvisor())).not.toContain('--pids-limit');
    // Every other limit stays under gVisor.
    const g = translate(gvisor());
    for (const flag of ['--memory', '--read-only', '--cap-drop', '--network', '--user', '--cpus']) expect(g, flag).toContain(flag);
  });
});

describe('podman specifics', () => {
  it('passes the OCI runtime and gVisor network switch as global flags, before `run`', () => {
    const argv = podmanArgs(gvisor());
    expect(argv.slice(0, 4)).toEqual(['--runtime=runsc', '--runtime-flag', 'network=none', 'run']);
    expect(podmanArgs(spec({ ociRuntime: 'runc' })).slice(0, 2)).toEqual(['--runtime=runc', 'run']);
    expect(podmanArgs(spec({ ociRuntime: 'runc' }))).not.toContain('--runtime-flag');
  });
  it('has the runtime-side lifetime cap', () => {
    const argv = podmanArgs(spec());
    expect(argv[argv.indexOf('--timeout') + 1]).toBe('900');
  });
});

describe('docker specifics', () => {
  it('takes the OCI runtime after `run`, has no podman-only flags and no --timeout', () => {
    const argv = dockerArgs(gvisor());
    expect(argv[0]).toBe('run');
    expect(argv).toContain('--runtime=runsc');
    for (const flag of ['--timeout', '--read-only-tmpfs=false', '--http-proxy=false', '--runtime-flag']) expect(argv).not.toContain(flag);
  });
});

describe('pod manifest', () => {
  const pod = podManifest(spec(), { namespace: 'team-a' });
  const container = get(pod, 'spec.containers.0');

  it('is one pod that never restarts, with the lifetime as activeDeadlineSeconds', () => {
    expect(get(pod, 'spec.restartPolicy')).toBe('Never');
    expect(get(pod, 'spec.activeDeadlineSeconds')).toBe(900);
    expect(get(pod, 'metadata.namespace')).toBe('team-a');
  });
  it('runs as 65534, non-root, read-only, no capabilities, no escalation, no token, no host namespaces', () => {
    expect(get(pod, 'spec.securityContext')).toMatchObject({ runAsNonRoot: true, runAsUser: 65534, runAsGroup: 65534 });
    expect(get(container, 'securityContext')).toEqual({
      runAsNonRoot: true, runAsUser: 65534, runAsGroup: 65534, readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false, privileged: false, capabilities: { drop: ['ALL'] },
    });
    expect(get(pod, 'spec.automountServiceAccountToken')).toBe(false);
    expect([get(pod, 'spec.hostNetwork'), get(pod, 'spec.hostPID'), get(pod, 'spec.hostIPC')]).toEqual([false, false, false]);
  });
  it('uses the Localhost seccomp profile when given, RuntimeDefault otherwise', () => {
    expect(get(pod, 'spec.securityContext.seccompProfile')).toEqual({ type: 'Localhost', localhostProfile: '/opt/sandbar/seccomp.json' });
    const { seccompProfile: _s, ...rest } = spec();
    const plain = podManifest(rest, { namespace: 'x' });
    expect(get(plain, 'spec.securityContext.seccompProfile')).toEqual({ type: 'RuntimeDefault' });
  });
  it('sets requests equal to limits, in Kubernetes units (512m is 512Mi, not milli-bytes)', () => {
    expect(get(container, 'resources')).toEqual({ requests: { memory: '512Mi', cpu: '1.5' }, limits: { memory: '512Mi', cpu: '1.5' } });
  });
  it('mounts /tmp and /workspace as memory emptyDirs with size limits, and attaches stdin without a TTY', () => {
    expect(get(pod, 'spec.volumes')).toEqual([
      { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
      { name: 'workspace', emptyDir: { medium: 'Memory', sizeLimit: '128Mi' } },
    ]);
    expect(get(container, 'volumeMounts')).toEqual([{ name: 'tmp', mountPath: '/tmp' }, { name: 'workspace', mountPath: '/workspace' }]);
    expect([get(container, 'stdin'), get(container, 'stdinOnce'), get(container, 'tty')]).toEqual([true, true, false]);
  });
  it('labels the pod for the reaper and marks warm pods; label values are made legal', () => {
    expect(get(pod, 'metadata.labels')).toMatchObject({ 'app.kubernetes.io/managed-by': 'sandbar', 'sandbar.instance': 'inst1', 'sandbar.host': 'my-host' });
    const warm = podManifest(spec(), { namespace: 'x', warm: true }) as { metadata: { labels: Record<string, string> } };
    expect(warm.metadata.labels['sandbar.warm']).toBe('true');
    expect(labelValue('--a b--')).toBe('a-b');
    expect(labelValue('-'.repeat(70))).toBe('x');
    expect(labelValue('x'.repeat(80))).toHaveLength(63);
  });
  it('has a runtimeClassName only when asked', () => {
    expect(get(pod, 'spec.runtimeClassName')).toBeUndefined();
    expect(get(podManifest(spec(), { namespace: 'x', runtimeClassName: 'gvisor' }), 'spec.runtimeClassName')).toBe('gvisor');
  });
  it('converts sizes to quantities', () => {
    expect([toQuantity('512m'), toQuantity('1g'), toQuantity('1.5g'), toQuantity('64k'), toQuantity('1000')]).toEqual(['512Mi', '1Gi', '1536Mi', '64Ki', '1000']);
  });
});

describe('spec helpers', () => {
  it('reads runsc (by name or path) as gVisor and anything else as runc-class', () => {
    expect([isolationOf('runsc'), isolationOf('/usr/bin/runsc'), isolationOf('runc'), isolationOf('crun'), isolationOf(undefined)]).toEqual(['runsc', 'runsc', 'runc', 'runc', 'runc']);
  });
  it('accepts the spec the engine builds', () => {
    expect(() => assertSafeSpec(spec())).not.toThrow();
  });
});
