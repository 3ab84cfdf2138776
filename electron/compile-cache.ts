// V8's compile cache for the `sandbar` command (Node ≥ 22.1, `module.enableCompileCache`): a cold command
// parses and compiles its chunks once, later starts read the compiled code back. Kept in SANDBAR_HOME, which
// is owner-only, never in a shared temporary folder where another user could plant code for us to run.
// Older Node has no such API and starts as before.
import { existsSync } from 'node:fs';
import * as nodeModule from 'node:module';
import path from 'node:path';
import { sandbarHome } from './settings/paths.js';

export const COMPILE_CACHE_DIR = 'compile-cache';

type Enable = (directory: string) => { status: number; directory?: string };

/** Turns the cache on when Node has it and the home exists (it is never created here); answers its folder or null. */
export function enableCompileCache(
  env: NodeJS.ProcessEnv = process.env,
  enable: Enable | undefined = (nodeModule as unknown as { enableCompileCache?: Enable }).enableCompileCache,
): string | null {
  if (!enable) return null;
  const home = sandbarHome(env);
  if (!existsSync(home)) return null;
  try {
    const result = enable(path.join(home, COMPILE_CACHE_DIR));
    return result.directory ?? null;
  } catch {
    // A cache that cannot be used only costs the time it would have saved.
    return null;
  }
}
