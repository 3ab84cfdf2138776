// Backups that never overwrite, atomic replacement that keeps the mode and symlinks, and no lost client writes.
import { chmodSync, lstatSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { backupName, readConfigBytes, writeAtomic, writeBackup } from '../../../electron/clients/safe-write.js';
import { AppError } from '../../../shared/errors.js';
import { NOW, put, siblings, tempHome } from './helpers.js';

describe('writeBackup', () => {
  it('names backups after the time, without : or .', () => {
    expect(backupName('/h/.cursor/mcp.json', NOW)).toBe('/h/.cursor/mcp.json.sandbar-backup-2025-01-02T03-04-05-678Z');
    expect(backupName('/h/mcp.json', NOW, 2)).toBe('/h/mcp.json.sandbar-backup-2025-01-02T03-04-05-678Z-2');
  });

  it('never overwrites an earlier backup, and keeps the file’s mode', async () => {
    const file = put(tempHome(), 'mcp.json', 'v1');
    chmodSync(file, 0o604);
    const first = await writeBackup(file, Buffer.from('v1'), NOW);
    const second = await writeBackup(file, Buffer.from('v2'), NOW);
    expect(second).toBe(`${first}-1`);
    expect(readFileSync(first, 'utf8')).toBe('v1');
    expect(readFileSync(second, 'utf8')).toBe('v2');
    expect(statSync(first).mode & 0o777).toBe(0o604);
  });
});

describe('writeAtomic', () => {
  it('replaces the file, keeping its mode, and leaves no temp file', async () => {
    const home = tempHome();
    const file = put(home, 'cfg/mcp.json', 'old');
    // A mode the usual umask (022 or 002) would strip from a freshly created file.
    chmodSync(file, 0o666);
    await writeAtomic(file, 'new', Buffer.from('old'));
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(statSync(file).mode & 0o777).toBe(0o666);
    expect(siblings(path.dirname(file))).toEqual(['mcp.json']);
  });

  it('creates a missing file and its folders, readable only by its owner', async () => {
    const file = path.join(tempHome(), 'a', 'b', 'mcp.json');
    await writeAtomic(file, '{}\n', null);
    expect(readFileSync(file, 'utf8')).toBe('{}\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('edits the target of a symlinked config and keeps the link', async () => {
    const home = tempHome();
    const real = put(home, 'dotfiles/mcp.json', 'old');
    const link = path.join(home, 'mcp.json');
    symlinkSync(real, link);
    await writeAtomic(link, 'new', Buffer.from('old'));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(real);
    expect(readFileSync(real, 'utf8')).toBe('new');
  });

  it('writes nothing when the client changed the file since it was read', async () => {
    const home = tempHome();
    const file = put(home, 'mcp.json', 'read by sandbar');
    writeFileSync(file, 'rewritten by the client');
    const err = await writeAtomic(file, 'sandbar’s edit', Buffer.from('read by sandbar')).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toContain('changed while Sandbar was editing it');
    expect(readFileSync(file, 'utf8')).toBe('rewritten by the client');
    expect(siblings(home)).toEqual(['mcp.json']);
    // And a file that appeared meanwhile is not replaced either.
    const late = path.join(home, 'late.json');
    const appeared = writeAtomic(late, 'sandbar', null);
    writeFileSync(late, 'client');
    await expect(appeared).rejects.toThrow(/changed while Sandbar/);
    expect(readFileSync(late, 'utf8')).toBe('client');
  });
});

describe('readConfigBytes', () => {
  it('reads a missing file as missing, and refuses bytes that are not UTF-8', async () => {
    const home = tempHome();
    expect(await readConfigBytes(path.join(home, 'none.json'))).toEqual({ file: path.join(home, 'none.json'), bytes: null, text: '' });
    const latin1 = put(home, 'latin1.json', Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]));
    await expect(readConfigBytes(latin1)).rejects.toMatchObject({ code: 'invalid_config', message: expect.stringContaining('not UTF-8') });
  });
});
