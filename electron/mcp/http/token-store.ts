// The HTTP endpoint's bearer token: 256 random bits, created at first start, stored owner-only.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TOKEN_FILE } from '../../settings/paths.js';

const TOKEN_RE = /^[0-9a-f]{64}$/;

export interface TokenInfo {
  token: string;
  file: string;
  /** True when this call created it (first start, or a damaged file was replaced). */
  created: boolean;
}

function writeToken(file: string): string {
  const token = randomBytes(32).toString('hex');
  // Write then rename, so a crash never leaves a half-written token behind.
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${token}\n`, { mode: 0o600 });
  renameSync(temp, file);
  return token;
}

export function loadOrCreateToken(home: string): TokenInfo {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = path.join(home, TOKEN_FILE);
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (TOKEN_RE.test(token)) {
      // Someone loosened it: tighten rather than refuse to start.
      if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
      return { token, file, created: false };
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return { token: writeToken(file), file, created: true };
}

export function rotateToken(home: string): TokenInfo {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = path.join(home, TOKEN_FILE);
  return { token: writeToken(file), file, created: true };
}
