// Finds the container runtime binary. GUI launches on macOS get a short PATH, so the usual install
// folders are searched too. Nothing is cached here: a runtime installed later is found on the next call.
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { AppError } from '../../../shared/errors.js';

export type RuntimeName = 'podman' | 'docker';

export interface LocatedRuntime {
  name: RuntimeName;
  path: string;
  /** How it was chosen: named in the environment, or found by search. */
  source: 'env' | 'search';
}

export const RUNTIME_ENV_VARS = ['SANDBAR_RUNTIME', 'MCP_BRIDGE_RUNTIME'] as const;

export const NO_RUNTIME_MESSAGE =
  'No container runtime found. Install podman or rootless docker and set MCP_BRIDGE_RUNTIME if multiple runtimes are available.';

export function knownInstallDirs(platform: NodeJS.Platform, home: string): string[] {
  if (platform === 'win32') {
    return [
      'C:\\Program Files\\RedHat\\Podman',
      'C:\\Program Files\\Docker\\Docker\\resources\\bin',
    ];
  }
  const common = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/snap/bin', path.join(home, '.local/bin')];
  if (platform === 'darwin') {
    return [
      '/opt/homebrew/bin',
      '/opt/podman/bin',
      '/usr/local/podman/bin',
      '/Applications/Docker.app/Contents/Resources/bin',
      path.join(home, '.docker/bin'),
      path.join(home, '.rd/bin'),
      ...common,
    ];
  }
  return common;
}

export interface LocateOptions {
  env: NodeJS.ProcessEnv;
  /** A runtime chosen in the settings file; the environment variables still win over it. */
  choice?: { value: string; label: string };
  platform: NodeJS.Platform;
  home?: string;
  isExecutable?: (file: string) => boolean;
}

function defaultIsExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function nameOf(file: string): RuntimeName {
  return /docker/i.test(path.basename(file)) ? 'docker' : 'podman';
}

/** Returns null when nothing is installed; throws when the environment names a runtime that is missing. */
export function locateRuntime(options: LocateOptions): LocatedRuntime | null {
  const { env, platform } = options;
  const isExecutable = options.isExecutable ?? defaultIsExecutable;
  const dirs = [
    ...(env.PATH ?? '').split(path.delimiter).filter(Boolean),
    ...knownInstallDirs(platform, options.home ?? homedir()),
  ];
  const exe = platform === 'win32' ? '.exe' : '';
  const search = (binary: string): string | null => {
    for (const dir of dirs) {
      const candidate = path.join(dir, binary + exe);
      if (isExecutable(candidate)) return candidate;
    }
    return null;
  };

  const named = RUNTIME_ENV_VARS.map((v) => ({ label: v, value: env[v]?.trim() ?? '' })).find((c) => c.value);
  const chosen = named ?? (options.choice?.value.trim() ? options.choice : undefined);
  if (chosen) {
    const wanted = chosen.value.trim();
    const found = wanted.includes('/') || wanted.includes('\\') ? (isExecutable(wanted) ? wanted : null) : search(wanted);
    if (!found) {
      throw new AppError('runtime_not_found', `${chosen.label}=${wanted} names a container runtime that was not found.`);
    }
    return { name: nameOf(found), path: found, source: 'env' };
  }
  for (const name of ['podman', 'docker'] as const) {
    const found = search(name);
    if (found) return { name, path: found, source: 'search' };
  }
  return null;
}

export const KNOWN_OCI_RUNTIMES = ['runc', 'crun', 'runsc', 'kata-runtime', 'youki', 'krun'] as const;

/** OCI runtimes installed on this host (on macOS and Windows they live in the runtime's VM: unknown). */
export function findOciRuntimes(options: LocateOptions): string[] {
  if (options.platform !== 'linux') return [];
  const isExecutable = options.isExecutable ?? defaultIsExecutable;
  const dirs = [
    ...(options.env.PATH ?? '').split(path.delimiter).filter(Boolean),
    ...knownInstallDirs(options.platform, options.home ?? homedir()),
    '/usr/libexec/podman',
  ];
  return KNOWN_OCI_RUNTIMES.filter((name) => dirs.some((dir) => isExecutable(path.join(dir, name))));
}
