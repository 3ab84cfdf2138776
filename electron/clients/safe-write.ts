// Reading, backing up and replacing a client's config file without ever leaving it half-written: the
// backup holds the exact bytes Sandbar read, and the new text lands by rename from a temp file beside it.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, realpath, rename, stat, unlink, chmod } from 'node:fs/promises';
import path from 'node:path';
import { AppError, errorMessage } from '../../shared/errors.js';

/** Config files Sandbar creates, or writes a token into, hold a bearer token: only their owner may read them. */
export const PRIVATE_CONFIG_MODE = 0o600;
const NEW_FILE_MODE = PRIVATE_CONFIG_MODE;

export interface ConfigFile {
  /** The path as the client knows it. */
  file: string;
  /** Exact bytes, or null when the file does not exist. */
  bytes: Buffer | null;
  /** The bytes as text; '' for a missing file. */
  text: string;
}

export async function readConfigBytes(file: string): Promise<ConfigFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { file, bytes: null, text: '' };
    throw new AppError('invalid_config', `Cannot read ${file}: ${errorMessage(err)}`, { cause: err });
  }
  const text = bytes.toString('utf8');
  // Decoding replaces invalid bytes; writing the text back would then change bytes Sandbar never meant to touch.
  if (!Buffer.from(text, 'utf8').equals(bytes)) throw new AppError('invalid_config', `${file} is not UTF-8 text; Sandbar left it unchanged.`);
  return { file, bytes, text };
}

/** `<file>.sandbar-backup-2025-01-02T03-04-05-678Z`; a name already taken gets `-1`, `-2`, … */
export function backupName(file: string, now: Date, attempt = 0): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return `${file}.sandbar-backup-${stamp}${attempt === 0 ? '' : `-${attempt}`}`;
}

/** Writes the bytes read beside the file, with its mode; never overwrites an earlier backup. */
export async function writeBackup(file: string, bytes: Buffer, now: Date): Promise<string> {
  const mode = await fileMode(file);
  for (let attempt = 0; attempt < 100; attempt++) {
    const target = backupName(file, now, attempt);
    try {
      await writeNew(target, bytes, mode ?? NEW_FILE_MODE);
      return target;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new AppError('internal', `Cannot back up ${file}: ${errorMessage(err)}`, { cause: err });
    }
  }
  throw new AppError('internal', `Cannot back up ${file}: too many backups with the same timestamp.`);
}

/**
 * Replaces the file by rename from a temp file in the same folder (a rename within one file system is
 * atomic), keeping its mode. `expected` is what Sandbar read: if the client rewrote the file meanwhile,
 * nothing is written rather than losing the client's change.
 */
export async function writeAtomic(file: string, text: string, expected: Buffer | null, options: { mode?: number } = {}): Promise<void> {
  // A symlinked config (dotfiles kept in a repository) stays a symlink: the edit goes to its target.
  const target = expected === null ? file : await realpath(file);
  const dir = path.dirname(target);
  if (expected === null) await mkdir(dir, { recursive: true });
  const mode = options.mode ?? (expected === null ? NEW_FILE_MODE : ((await fileMode(target)) ?? NEW_FILE_MODE));
  const temp = path.join(dir, `.${path.basename(target)}.sandbar-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeNew(temp, Buffer.from(text, 'utf8'), mode);
    const now = await readConfigBytes(target);
    const unchanged = expected === null ? now.bytes === null : now.bytes !== null && now.bytes.equals(expected);
    if (!unchanged) throw new AppError('invalid_config', `${file} changed while Sandbar was editing it; nothing was written. Try again.`);
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    if (err instanceof AppError) throw err;
    throw new AppError('internal', `Cannot write ${file}: ${errorMessage(err)}`, { cause: err });
  }
}

/** Creates a file that must not exist yet, flushed to disk, with exactly `mode` (open's mode is masked by umask). */
async function writeNew(file: string, bytes: Buffer, mode: number): Promise<void> {
  const handle = await open(file, 'wx', mode);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await chmod(file, mode);
}

/** Permission bits (`0o644`), or null when the file does not exist; a symlink reports its target's. */
export async function fileMode(file: string): Promise<number | null> {
  try {
    return (await stat(file)).mode & 0o7777;
  } catch {
    return null;
  }
}
