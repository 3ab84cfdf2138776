// SANDBAR_HOME and the secrets in it are owner-only: created so, and tightened when an older Sandbar (or a
// person) left them looser. The two tokens are separate files and rotate separately.
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateToken, rotateToken } from '../../../electron/http/token-store.js';
import { ensurePrivateHome, tightenFile } from '../../../electron/settings/private-home.js';

const mode = (p: string) => statSync(p).mode & 0o777;
const temp = () => mkdtempSync(path.join(tmpdir(), 'sandbar-home-'));

describe.skipIf(process.platform === 'win32')('private home', () => {
  it('creates the home 0700 and tightens a 0755 one', () => {
    const parent = temp();
    const fresh = path.join(parent, 'a', 'sandbar');
    ensurePrivateHome(fresh);
    expect(mode(fresh)).toBe(0o700);
    const loose = temp();
    chmodSync(loose, 0o755);
    ensurePrivateHome(loose);
    expect(mode(loose)).toBe(0o700);
  });

  it('tightens a loose file and ignores a missing one', () => {
    const dir = temp();
    const file = path.join(dir, 'history.db-wal');
    writeFileSync(file, 'x', { mode: 0o644 });
    tightenFile(file);
    expect(mode(file)).toBe(0o600);
    expect(() => tightenFile(path.join(dir, 'missing'))).not.toThrow();
  });

  it('keeps the client and panel tokens apart: two 0600 files, rotated one at a time', () => {
    const home = temp();
    const client = loadOrCreateToken(home, 'client');
    const panel = loadOrCreateToken(home, 'panel');
    expect(path.basename(client.file)).toBe('token');
    expect(path.basename(panel.file)).toBe('panel-token');
    expect(client.token).not.toBe(panel.token);
    expect([mode(client.file), mode(panel.file)]).toEqual([0o600, 0o600]);
    const rotated = rotateToken(home, 'panel');
    expect(rotated.token).not.toBe(panel.token);
    expect(readFileSync(client.file, 'utf8').trim()).toBe(client.token);
    expect(loadOrCreateToken(home, 'client')).toMatchObject({ token: client.token, created: false });
  });
});
