// Which folders to watch so that every discovery source is seen when it changes, appears or disappears.
// Folders, not files: editors save by renaming a new file over the old one, which a watch on the old file
// would miss, and a watch cannot be put on a file that does not exist yet.
import { statSync } from 'node:fs';
import path from 'node:path';
import { envConfigPath, importedFiles, mcpsDir, type DiscoveryOptions } from './discover.js';

/** Folder → the entry names in it that matter (lower case), or null when every entry does (~/MCPs). */
export type WatchPlan = Map<string, Set<string> | null>;

export function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

export function watchPlan(options: DiscoveryOptions): WatchPlan {
  const plan: WatchPlan = new Map();
  const want = (dir: string, name: string | null) => {
    const names = plan.get(dir);
    if (name === null || names === null) plan.set(dir, null);
    else plan.set(dir, (names ?? new Set()).add(name.toLowerCase()));
  };
  // A source that does not exist yet is found by watching its nearest existing ancestor for the next step
  // of its path: when ~/.cursor appears, the next plan watches ~/.cursor for mcp.json.
  const watchFor = (target: string) => {
    let child = target;
    let dir = path.dirname(target);
    while (!isDirectory(dir) && path.dirname(dir) !== dir) {
      child = dir;
      dir = path.dirname(dir);
    }
    if (!isDirectory(dir)) return;
    want(dir, path.basename(child));
    // Also watch that folder's own entry in its parent (inside home only, to stay off busy folders like
    // /tmp): a folder deleted and made again can get the same inode, and the old watch goes silent.
    const inHome = path.relative(options.home, dir);
    if (inHome !== '' && !inHome.startsWith('..') && !path.isAbsolute(inHome)) want(path.dirname(dir), path.basename(dir));
  };

  const mcps = mcpsDir(options.home);
  if (isDirectory(mcps)) want(mcps, null);
  watchFor(mcps);
  const envFile = envConfigPath(options);
  if (envFile !== null) watchFor(envFile);
  for (const file of importedFiles(options)) watchFor(file.path);
  return plan;
}
