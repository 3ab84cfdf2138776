// Finding podman or docker: from the environment, on PATH, or in the usual install folders.
import { describe, expect, it } from 'vitest';
import { knownInstallDirs, locateRuntime, NO_RUNTIME_MESSAGE, RUNTIME_ENV_VARS } from '../../../../electron/sandbox/cli/runtime-locator.js';
import { AppError } from '../../../../shared/errors.js';

const HOME = '/home/me';

function fakeFs(...executables: string[]) {
  const set = new Set(executables);
  const asked: string[] = [];
  return {
    asked,
    isExecutable: (file: string) => {
      asked.push(file);
      return set.has(file);
    },
  };
}

function locate(env: NodeJS.ProcessEnv, executables: string[], platform: NodeJS.Platform = 'linux') {
  return locateRuntime({ env, platform, home: HOME, isExecutable: fakeFs(...executables).isExecutable });
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('locateRuntime from the environment', () => {
  it('checks SANDBAR_RUNTIME before MCP_BRIDGE_RUNTIME', () => {
    expect(RUNTIME_ENV_VARS).toEqual(['SANDBAR_RUNTIME', 'MCP_BRIDGE_RUNTIME']);
  });

  it('finds a runtime named by the variable on PATH', () => {
    expect(locate({ PATH: '/usr/bin', SANDBAR_RUNTIME: 'docker' }, ['/usr/bin/podman', '/usr/bin/docker'])).toEqual({
      name: 'docker',
      path: '/usr/bin/docker',
      source: 'env',
    });
  });

  it('finds a runtime named by MCP_BRIDGE_RUNTIME', () => {
    expect(locate({ PATH: '/usr/bin', MCP_BRIDGE_RUNTIME: 'docker' }, ['/usr/bin/podman', '/usr/bin/docker'])).toEqual({
      name: 'docker',
      path: '/usr/bin/docker',
      source: 'env',
    });
  });

  it('finds a runtime named by the variable in a known install folder', () => {
    expect(locate({ PATH: '', SANDBAR_RUNTIME: 'podman' }, ['/usr/local/bin/podman'])).toEqual({
      name: 'podman',
      path: '/usr/local/bin/podman',
      source: 'env',
    });
  });

  it('takes a path as given', () => {
    expect(locate({ PATH: '/usr/bin', SANDBAR_RUNTIME: '/opt/tools/podman' }, ['/opt/tools/podman', '/usr/bin/docker'])).toEqual({
      name: 'podman',
      path: '/opt/tools/podman',
      source: 'env',
    });
  });

  it('detects docker from a path like /usr/local/bin/docker', () => {
    expect(locate({ MCP_BRIDGE_RUNTIME: '/usr/local/bin/docker' }, ['/usr/local/bin/docker'])).toEqual({
      name: 'docker',
      path: '/usr/local/bin/docker',
      source: 'env',
    });
  });

  it('prefers SANDBAR_RUNTIME over MCP_BRIDGE_RUNTIME', () => {
    const found = locate({ PATH: '/usr/bin', SANDBAR_RUNTIME: 'podman', MCP_BRIDGE_RUNTIME: 'docker' }, ['/usr/bin/podman', '/usr/bin/docker']);
    expect(found).toMatchObject({ name: 'podman', path: '/usr/bin/podman' });
  });

  it('ignores an empty or blank variable and uses the next', () => {
    const found = locate({ PATH: '/usr/bin', SANDBAR_RUNTIME: '   ', MCP_BRIDGE_RUNTIME: 'docker' }, ['/usr/bin/podman', '/usr/bin/docker']);
    expect(found).toEqual({ name: 'docker', path: '/usr/bin/docker', source: 'env' });
  });

  it('trims the value', () => {
    expect(locate({ PATH: '/usr/bin', SANDBAR_RUNTIME: ' docker\n' }, ['/usr/bin/docker'])).toMatchObject({ path: '/usr/bin/docker' });
  });

  it('throws an AppError naming the variable when the named runtime is missing', () => {
    const err = thrown(() => locate({ PATH: '/usr/bin', SANDBAR_RUNTIME: 'docker' }, ['/usr/bin/podman']));
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('runtime_not_found');
    expect((err as AppError).message).toContain('SANDBAR_RUNTIME');
    expect((err as AppError).message).toContain('docker');
  });

  it('throws naming MCP_BRIDGE_RUNTIME when that names a missing path', () => {
    const err = thrown(() => locate({ PATH: '/usr/bin', MCP_BRIDGE_RUNTIME: '/nope/podman' }, ['/usr/bin/podman']));
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toContain('MCP_BRIDGE_RUNTIME=/nope/podman');
  });

  it('does not fall back to MCP_BRIDGE_RUNTIME when SANDBAR_RUNTIME names a missing runtime', () => {
    const err = thrown(() => locate({ PATH: '/usr/bin', SANDBAR_RUNTIME: 'nerdctl', MCP_BRIDGE_RUNTIME: 'podman' }, ['/usr/bin/podman']));
    expect((err as AppError).message).toContain('SANDBAR_RUNTIME');
  });
});

describe('locateRuntime by search', () => {
  it('prefers podman over docker', () => {
    expect(locate({ PATH: '/usr/bin:/usr/local/bin' }, ['/usr/local/bin/docker', '/usr/bin/docker', '/usr/bin/podman'])).toEqual({
      name: 'podman',
      path: '/usr/bin/podman',
      source: 'search',
    });
  });

  it('prefers podman even when docker comes first on PATH', () => {
    expect(locate({ PATH: '/a:/b' }, ['/a/docker', '/b/podman'])).toMatchObject({ name: 'podman', path: '/b/podman' });
  });

  it('follows PATH order', () => {
    expect(locate({ PATH: '/first:/second' }, ['/second/podman', '/first/podman'])).toMatchObject({ path: '/first/podman' });
  });

  it('finds docker when there is no podman', () => {
    expect(locate({ PATH: '/usr/local/bin' }, ['/usr/local/bin/docker'])).toEqual({
      name: 'docker',
      path: '/usr/local/bin/docker',
      source: 'search',
    });
  });

  it('finds podman in a known macOS folder when a GUI launch has a short PATH', () => {
    expect(locate({ PATH: '/usr/bin:/bin' }, ['/opt/homebrew/bin/podman'], 'darwin')).toEqual({
      name: 'podman',
      path: '/opt/homebrew/bin/podman',
      source: 'search',
    });
    expect(locate({ PATH: '/usr/bin:/bin' }, ['/opt/podman/bin/podman'], 'darwin')).toMatchObject({ path: '/opt/podman/bin/podman' });
  });

  it('finds Docker Desktop’s binary under the home folder on macOS', () => {
    expect(locate({ PATH: '/usr/bin' }, [`${HOME}/.docker/bin/docker`], 'darwin')).toEqual({
      name: 'docker',
      path: `${HOME}/.docker/bin/docker`,
      source: 'search',
    });
  });

  it('searches macOS folders only on macOS', () => {
    expect(locate({ PATH: '/usr/bin' }, ['/opt/homebrew/bin/podman'], 'linux')).toBeNull();
  });

  it('works without PATH at all', () => {
    expect(locate({}, ['/usr/bin/podman'])).toMatchObject({ path: '/usr/bin/podman' });
  });

  it('returns null when nothing is found', () => {
    const fs = fakeFs();
    expect(locateRuntime({ env: { PATH: '/usr/bin:/bin' }, platform: 'darwin', home: HOME, isExecutable: fs.isExecutable })).toBeNull();
    // It really looked: PATH entries and known folders, for both runtimes.
    expect(fs.asked).toContain('/usr/bin/podman');
    expect(fs.asked).toContain('/opt/homebrew/bin/docker');
    expect(fs.asked).toContain(`${HOME}/.local/bin/podman`);
  });

  it('has an install hint in the no-runtime message', () => {
    expect(NO_RUNTIME_MESSAGE).toMatch(/^No container runtime found\./);
    expect(NO_RUNTIME_MESSAGE).toContain('MCP_BRIDGE_RUNTIME');
  });
});

describe('knownInstallDirs', () => {
  it('includes Homebrew, Podman installer, Docker Desktop and Rancher Desktop folders on macOS', () => {
    const dirs = knownInstallDirs('darwin', HOME);
    expect(dirs).toEqual(
      expect.arrayContaining([
        '/opt/homebrew/bin',
        '/opt/podman/bin',
        '/Applications/Docker.app/Contents/Resources/bin',
        `${HOME}/.docker/bin`,
        `${HOME}/.rd/bin`,
        '/usr/local/bin',
      ]),
    );
  });

  it('has the usual Linux folders and nothing macOS-specific', () => {
    const dirs = knownInstallDirs('linux', HOME);
    expect(dirs).toEqual(expect.arrayContaining(['/usr/local/bin', '/usr/bin', '/bin', `${HOME}/.local/bin`]));
    expect(dirs.some((d) => d.startsWith('/opt/homebrew') || d.includes('Applications'))).toBe(false);
  });

  it('has the Windows install folders', () => {
    expect(knownInstallDirs('win32', HOME)).toEqual(['C:\\Program Files\\RedHat\\Podman', 'C:\\Program Files\\Docker\\Docker\\resources\\bin']);
  });
});
