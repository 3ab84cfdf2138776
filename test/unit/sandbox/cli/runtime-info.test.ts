// `podman info` / `docker info` JSON into the facts the engine and the health view use.
import { describe, expect, it } from 'vitest';
import {
  infoArgs,
  isCrunHybridFailure,
  parseDockerInfo,
  parseInfo,
  parsePodmanInfo,
} from '../../../../electron/sandbox/cli/runtime-info.js';

/** Trimmed from a real `podman info --format json` (podman 5.x, rootless, cgroup v2). */
function podmanInfo(overrides: { cgroupVersion?: string; ociRuntime?: string; rootless?: boolean } = {}) {
  return {
    host: {
      arch: 'amd64',
      buildahVersion: '1.37.5',
      cgroupManager: 'systemd',
      cgroupVersion: overrides.cgroupVersion ?? 'v2',
      cgroupControllers: ['cpu', 'memory', 'pids'],
      conmon: { package: 'conmon-2.1.12', path: '/usr/bin/conmon', version: 'conmon version 2.1.12' },
      distribution: { distribution: 'fedora', variant: 'workstation', version: '41' },
      hostname: 'laptop',
      kernel: '6.11.4-301.fc41.x86_64',
      ociRuntime: {
        name: overrides.ociRuntime ?? 'crun',
        package: 'crun-1.17-1.fc41.x86_64',
        path: '/usr/bin/crun',
        version: 'crun version 1.17\ncommit: 000fa0d4eeed8938301f3bcf8206405315bc1017',
      },
      os: 'linux',
      security: {
        apparmorEnabled: false,
        capabilities: 'CAP_CHOWN,CAP_DAC_OVERRIDE,CAP_FOWNER,CAP_FSETID,CAP_KILL',
        rootless: overrides.rootless ?? true,
        seccompEnabled: true,
        seccompProfilePath: '/usr/share/containers/seccomp.json',
        selinuxEnabled: true,
      },
    },
    plugins: { log: ['k8s-file', 'none', 'passthrough', 'journald'], network: ['bridge', 'macvlan'] },
    registries: { search: ['registry.fedoraproject.org', 'docker.io'] },
    store: { configFile: '/home/me/.config/containers/storage.conf', graphDriverName: 'overlay', graphRoot: '/home/me/.local/share/containers/storage' },
    version: { APIVersion: '5.2.5', Built: 1729209600, GoVersion: 'go1.23.2', Os: 'linux', OsArch: 'linux/amd64', Version: '5.2.5' },
  };
}

/** Trimmed from a real `docker info --format '{{json .}}'`. */
function dockerInfo(overrides: { SecurityOptions?: unknown; CgroupVersion?: string } = {}) {
  return {
    ID: '6a1f8b5c-0f7e-4b0a-9d8e-3b2d1c0a9f8e',
    Containers: 3,
    Images: 12,
    Driver: 'overlay2',
    DriverStatus: [['Backing Filesystem', 'extfs']],
    MemoryLimit: true,
    SwapLimit: true,
    CgroupDriver: 'systemd',
    CgroupVersion: overrides.CgroupVersion ?? '2',
    KernelVersion: '6.8.0-45-generic',
    OperatingSystem: 'Ubuntu 24.04.1 LTS',
    OSType: 'linux',
    Architecture: 'x86_64',
    NCPU: 8,
    MemTotal: 16_624_050_176,
    Name: 'box',
    ServerVersion: '27.3.1',
    Runtimes: { 'io.containerd.runc.v2': { path: 'runc' }, runc: { path: 'runc' } },
    DefaultRuntime: 'runc',
    SecurityOptions: overrides.SecurityOptions ?? ['name=seccomp,profile=builtin', 'name=rootless'],
  };
}

describe('parsePodmanInfo', () => {
  it('reads a rootless cgroup v2 podman', () => {
    expect(parsePodmanInfo(podmanInfo())).toEqual({
      version: '5.2.5',
      rootless: true,
      cgroupVersion: 2,
      ociRuntime: 'crun',
      storageDriver: 'overlay',
    });
  });

  it('reads a rootful cgroup v1 podman with runc', () => {
    expect(parsePodmanInfo(podmanInfo({ cgroupVersion: 'v1', ociRuntime: 'runc', rootless: false }))).toEqual({
      version: '5.2.5',
      rootless: false,
      cgroupVersion: 1,
      ociRuntime: 'runc',
      storageDriver: 'overlay',
    });
  });

  it('does not take a truthy non-boolean as rootless', () => {
    const info = podmanInfo();
    (info.host.security as { rootless: unknown }).rootless = 'true';
    expect(parsePodmanInfo(info).rootless).toBe(false);
  });

  it('survives missing sections', () => {
    expect(parsePodmanInfo({})).toEqual({ version: '', rootless: false, cgroupVersion: null, ociRuntime: '', storageDriver: '' });
    expect(parsePodmanInfo({ host: null, store: 5, version: 'x' })).toEqual({
      version: '',
      rootless: false,
      cgroupVersion: null,
      ociRuntime: '',
      storageDriver: '',
    });
  });

  it('gives null for an unknown cgroup version', () => {
    expect(parsePodmanInfo(podmanInfo({ cgroupVersion: 'unknown' })).cgroupVersion).toBeNull();
  });
});

describe('parseDockerInfo', () => {
  it('reads a rootless cgroup v2 docker', () => {
    expect(parseDockerInfo(dockerInfo())).toEqual({
      version: '27.3.1',
      rootless: true,
      cgroupVersion: 2,
      ociRuntime: 'runc',
      storageDriver: 'overlay2',
    });
  });

  it('reads a rootful docker (no rootless security option) on cgroup v1', () => {
    const facts = parseDockerInfo(dockerInfo({ SecurityOptions: ['name=apparmor', 'name=seccomp,profile=builtin'], CgroupVersion: '1' }));
    expect(facts.rootless).toBe(false);
    expect(facts.cgroupVersion).toBe(1);
  });

  it('ignores malformed SecurityOptions', () => {
    expect(parseDockerInfo(dockerInfo({ SecurityOptions: 'name=rootless' })).rootless).toBe(false);
    expect(parseDockerInfo(dockerInfo({ SecurityOptions: [5, null, 'name=rootless'] })).rootless).toBe(true);
  });

  it('survives an empty object', () => {
    expect(parseDockerInfo({})).toEqual({ version: '', rootless: false, cgroupVersion: null, ociRuntime: '', storageDriver: '' });
  });
});

describe('parseInfo / infoArgs', () => {
  it('asks each runtime for JSON in its own way', () => {
    expect(infoArgs('podman')).toEqual(['info', '--format', 'json']);
    expect(infoArgs('docker')).toEqual(['info', '--format', '{{json .}}']);
  });

  it('dispatches on the runtime name', () => {
    expect(parseInfo('podman', JSON.stringify(podmanInfo()))).toMatchObject({ version: '5.2.5', ociRuntime: 'crun' });
    expect(parseInfo('docker', JSON.stringify(dockerInfo()))).toMatchObject({ version: '27.3.1', storageDriver: 'overlay2' });
  });

  it('throws on output that is not JSON', () => {
    expect(() => parseInfo('podman', 'Error: cannot connect')).toThrow();
  });
});

describe('isCrunHybridFailure', () => {
  it('recognises crun’s hybrid-cgroup refusal', () => {
    expect(
      isCrunHybridFailure(
        'Error: crun: cgroups in hybrid mode not supported, drop all controllers from cgroupv2: OCI runtime error',
      ),
    ).toBe(true);
    expect(isCrunHybridFailure('cgroup in hybrid mode')).toBe(true);
    expect(isCrunHybridFailure('HYBRID MODE IS NOT SUPPORTED')).toBe(true);
  });

  it('does not match other failures', () => {
    expect(isCrunHybridFailure('')).toBe(false);
    expect(isCrunHybridFailure('Error: crun: executable file `python3` not found in $PATH: No such file or directory: OCI runtime attempted to invoke a command that was not found')).toBe(false);
    expect(isCrunHybridFailure('error setting rlimit type 7: operation not permitted')).toBe(false);
  });
});
