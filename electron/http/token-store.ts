// Bearer tokens: 256 random bits each, created at first start, stored owner-only. There are two, with
// different powers: the client token (`token`) opens /mcp and is what MCP clients' configs carry; the
// panel token (`panel-token`) opens the control API and the panel, and is never written into a config.
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PANEL_TOKEN_FILE, TOKEN_FILE } from '../settings/paths.js';
import { ensurePrivateHome, PRIVATE_FILE_MODE, tightenFile } from '../settings/private-home.js';

const TOKEN_RE = /^[0-9a-f]{64}$/;

export type TokenKind = 'client' | 'panel';

export const TOKEN_FILES: Record<TokenKind, string> = { client: TOKEN_FILE, panel: PANEL_TOKEN_FILE };

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
  writeFileSync(temp, `${token}\n`, { mode: PRIVATE_FILE_MODE });
  renameSync(temp, file);
  return token;
}

export function loadOrCreateToken(home: string, kind: TokenKind = 'client'): TokenInfo {
  ensurePrivateHome(home);
  const file = path.join(home, TOKEN_FILES[kind]);
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (TOKEN_RE.test(token)) {
      // Someone loosened it: tighten rather than refuse to start.
      tightenFile(file);
      return { token, file, created: false };
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return { token: writeToken(file), file, created: true };
}

export function rotateToken(home: string, kind: TokenKind = 'client'): TokenInfo {
  ensurePrivateHome(home);
  const file = path.join(home, TOKEN_FILES[kind]);
  return { token: writeToken(file), file, created: true };
}
