// The user's folders on the command line: Podman binds each read-only (unless writable) with
// nosuid,nodev,noexec; Docker gets read-only ones through the local volume driver with the same options
// and never a writable one; a path that could add mount options never reaches an argv.
import { describe, expect, it } from 'vitest';
import { buildContainerArgs, type ContainerRun } from '../../../../electron/sandbox/cli/container-args.js';
import type { RuntimeName } from '../../../../electron/sandbox/cli/runtime-locator.js';
import { DEFAULT_LIMITS } from '../../../../shared/limits.js';
import type { FolderMount } from '../../../../shared/folders.js';

const ro: FolderMount = { name: 'data', source: '/home/me/data', target: '/mnt/data', writable: false };
const rw: FolderMount = { name: 'out', source: '/home/me/out dir', target: '/mnt/out', writable: true };

function argv(runtime: RuntimeName, folders: FolderMount[]): string[] {
  const run: ContainerRun = { runtime, image: 'python:3.14-slim', name: 'sandbar-abc', owner: { instanceId: 'i', pid: 1, host: 'h' }, ulimits: null, folders };
  return buildContainerArgs(DEFAULT_LIMITS, run);
}

const mounts = (args: string[]) => args.flatMap((a, i) => (a === '--mount' ? [args[i + 1]!] : []));

describe('folder mounts', () => {
  it('Podman: a bind per folder, read-only unless writable, always nosuid,nodev,noexec', () => {
    expect(mounts(argv('podman', [ro, rw]))).toEqual([
      'type=bind,source=/home/me/data,target=/mnt/data,readonly,nosuid,nodev,noexec',
      'type=bind,source=/home/me/out dir,target=/mnt/out,nosuid,nodev,noexec',
    ]);
  });

  it('Docker: a read-only local-volume bind with the options quoted as one field; a writable folder is refused', () => {
    expect(mounts(argv('docker', [ro]))).toEqual([
      'type=volume,target=/mnt/data,volume-driver=local,volume-opt=type=none,volume-opt=device=/home/me/data,"volume-opt=o=bind,ro,nosuid,nodev,noexec"',
    ]);
    expect(() => argv('docker', [rw])).toThrow(/writable folder/);
  });

  it('no folders, no mounts', () => {
    expect(mounts(argv('podman', []))).toEqual([]);
  });

  it.each([
    ['a comma (another mount option)', { source: '/data,readonly=false' }],
    ['a colon', { source: '/data:/etc' }],
    ['a double quote (ends the CSV field)', { source: '/data",o=bind' }],
    ['a newline', { source: '/data\nx' }],
    ['a relative path', { source: 'data' }],
    ['the root', { source: '/' }],
    ['a target outside /mnt/<name>', { target: '/etc' }],
    ['a name that is not one', { name: '../x', target: '/mnt/../x' }],
  ])('refuses %s before any argv is built', (_what, change) => {
    for (const runtime of ['podman', 'docker'] as const) expect(() => argv(runtime, [{ ...ro, ...change }])).toThrow(/not a (mountable folder|folder mount)/);
  });
});
