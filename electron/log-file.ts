// The log a tray app started at login leaves behind: `$SANDBAR_HOME/logs/sandbar.log`, rotated by size
// (sandbar.log.1 … .N kept, the oldest dropped), owner-only like the rest of SANDBAR_HOME. Every line is
// redacted before it is written: bearer tokens, the token files' values and the panel's `#token=`.
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { logToFile } from './logger.js';

export const LOGS_DIR = 'logs';
export const LOG_FILE = 'sandbar.log';
const MASK = '••••';

/** Pure: the line with every secret it could carry masked. */
export function redact(line: string, secrets: readonly string[] = []): string {
  let out = line
    .replace(/\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${MASK}`)
    .replace(/([#?&]token=)[^&\s"']+/gi, `$1${MASK}`);
  // Longest first, so a secret that contains another is masked whole.
  for (const secret of [...secrets].filter((s) => s.length >= 8).sort((a, b) => b.length - a.length)) out = out.split(secret).join(MASK);
  return out;
}

export interface LogFileOptions {
  dir: string;
  /** Rotate once the file would pass this size. */
  maxBytes?: number;
  /** Rotated files kept besides the current one. */
  keep?: number;
  /** Values never to write (the client and panel tokens), read on every line: a rotated token is covered at once. */
  secrets?: () => readonly string[];
}

export class LogFile {
  readonly file: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private size: number;

  constructor(private readonly options: LogFileOptions) {
    this.file = path.join(options.dir, LOG_FILE);
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.keep = options.keep ?? 3;
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    this.size = fileSize(this.file);
  }

  /** Writes one line (already ending in a newline). A failed write never breaks the caller: logging is best effort. */
  write(line: string): void {
    const text = redact(line, this.options.secrets?.() ?? []);
    const bytes = Buffer.byteLength(text);
    try {
      if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
      appendFileSync(this.file, text, { mode: 0o600 });
      this.size += bytes;
    } catch {
      // A full disk or a removed folder: the line still went to stderr.
    }
  }

  private rotate(): void {
    rmSync(`${this.file}.${this.keep}`, { force: true });
    for (let i = this.keep - 1; i >= 1; i--) {
      try {
        renameSync(`${this.file}.${i}`, `${this.file}.${i + 1}`);
      } catch {
        // Not there yet.
      }
    }
    renameSync(this.file, `${this.file}.1`);
    this.size = 0;
  }
}

/**
 * The log of a long-running instance (the tray app, `serve`), opened before anything else logs: from here
 * every logger's lines also go to `$SANDBAR_HOME/logs/sandbar.log`. Bearer credentials and `#token=` are
 * always masked; the token values join once they are loaded (`neverWrite`).
 */
export class AppLog {
  readonly file: LogFile;
  private readonly secrets: (() => readonly string[])[] = [];
  private readonly previous: ((line: string) => void) | undefined;
  private closed = false;

  constructor(home: string, options: Omit<LogFileOptions, 'dir' | 'secrets'> = {}) {
    this.file = new LogFile({ ...options, dir: path.join(home, LOGS_DIR), secrets: () => this.secrets.flatMap((read) => read()) });
    this.previous = logToFile((line) => this.file.write(line));
  }

  /** The file's path (Health shows it; the tray's "Open logs" opens its folder). */
  get path(): string {
    return this.file.file;
  }

  /** Values never to write from now on, read on every line (a rotated token is covered at once). */
  neverWrite(values: () => readonly string[]): void {
    this.secrets.push(values);
  }

  /** Stops sending lines here (the sink before this one, if any, takes over again). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    logToFile(this.previous ?? null);
  }
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
