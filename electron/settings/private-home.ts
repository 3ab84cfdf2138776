// SANDBAR_HOME holds the tokens, the settings and every run's code and output: only its owner may enter.
import { chmodSync, mkdirSync, statSync } from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `home` owner-only, or tightens it when it exists with looser bits (an older Sandbar made it 0755). */
export function ensurePrivateHome(home: string, platform: NodeJS.Platform = process.platform): void {
  mkdirSync(home, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (platform !== 'win32' && (statSync(home).mode & 0o077) !== 0) chmodSync(home, PRIVATE_DIR_MODE);
}

/** Tightens one file to owner-only if it exists and is looser; missing files are fine. */
export function tightenFile(file: string, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') return;
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
