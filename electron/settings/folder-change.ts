// `folders` is host-affecting: it decides which of this computer's files every sandbox sees. A change to it
// is one host change (refused over HTTP, confirmed in the desktop), described as the mounts it makes.
import { isDeepStrictEqual } from 'node:util';
import { folderMountPath } from '../../shared/folders.js';

/** The whole list as a person checks it: `/home/me/data → /mnt/data (read-only)`. */
export function describeFolders(folders: unknown): string {
  if (!Array.isArray(folders) || folders.length === 0) return 'folders: none';
  const one = (f: unknown) => {
    const { name, path, writable } = (f ?? {}) as { name?: unknown; path?: unknown; writable?: unknown };
    return `${String(path)} → ${folderMountPath(String(name))} (${writable === true ? 'writable' : 'read-only'})`;
  };
  return `folders: ${folders.map(one).join('; ')}`;
}

/** The change `patch` makes to `folders`, or null when it leaves them as they are. */
export function foldersChange(current: unknown, patch: Record<string, unknown>): { field: string; command: string } | null {
  if (!Object.hasOwn(patch, 'folders')) return null;
  if (isDeepStrictEqual(patch.folders ?? [], current ?? [])) return null;
  return { field: 'folders', command: describeFolders(patch.folders) };
}
