// Unpacks the tar stream an install helper sends into a staging directory, on the host's terms whatever
// the archive says: regular files and directories only, owned by the user Sandbar runs as (never the
// helper's unprivileged uid, which is `nobody` on the host), modes masked to 0755/0644 (no setuid, setgid,
// sticky or group/world write), and at most `maxBytes` of file content.
import type { Stats } from 'node:fs';
import { x as extractTar, type ReadEntry } from 'tar';
import { AppError } from '../../shared/errors.js';

export interface LayerExtraction {
  write(chunk: Buffer): void;
  /** Ends the stream and resolves when every file is on disk; rejects past the cap or on a bad archive. */
  finish(): Promise<void>;
  /** Set once the cap was passed (the caller stops the helper). */
  readonly overCap: boolean;
}

/** Executable bits survive (scripts in bin/), as 0755; everything else is 0644; directories 0755. */
export function maskedMode(type: string, mode: number | undefined): number {
  if (type === 'Directory') return 0o755;
  return (mode ?? 0) & 0o111 ? 0o755 : 0o644;
}

export function extractLayer(dir: string, maxBytes: number, onOverCap: () => void): LayerExtraction {
  let total = 0;
  let overCap = false;
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  const extractor = extractTar({
    cwd: dir,
    strict: true,
    preserveOwner: false,
    ...(uid !== undefined && gid !== undefined ? { uid, gid } : {}),
    // The archive's modes are replaced in the filter below and applied exactly (chmod), under a 022 mask.
    chmod: true,
    processUmask: 0o022,
    filter: (_path: string, entry: ReadEntry | Stats) => {
      if (!('type' in entry) || (entry.type !== 'File' && entry.type !== 'Directory')) return false;
      if (overCap) return false;
      total += entry.size ?? 0;
      if (total > maxBytes) {
        overCap = true;
        onOverCap();
        return false;
      }
      entry.mode = maskedMode(entry.type, entry.mode);
      return true;
    },
  });
  const closed = new Promise<void>((resolve, reject) => extractor.on('close', resolve).on('error', reject));
  return {
    write: (chunk) => {
      if (!overCap) extractor.write(chunk);
    },
    finish: async () => {
      extractor.end();
      // Past the cap the stream was cut short on purpose: the archive's complaint about that is not the news.
      await closed.catch((err: unknown) => {
        if (!overCap) throw err;
      });
      if (overCap) {
        const mb = `${(maxBytes / 1024 / 1024).toFixed(1)} MB`;
        throw new AppError('invalid_request', `The package cache is full: this set needs more than ${mb} unpacked and packageCacheMB allows ${mb}; nothing was kept.`);
      }
    },
    get overCap() {
      return overCap;
    },
  };
}
