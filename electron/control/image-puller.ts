// Pulls the sandbox image on request with progress for the panel. One pull at a time per image; the
// runtime's own lines are passed on, with a fraction when they carry sizes ("Copying blob … 12.3MiB / 45MiB").
import type { ImagePullProgress } from '../../shared/contract.js';
import { errorMessage } from '../../shared/errors.js';
import { parseHumanSize } from '../../shared/human-size.js';

export interface ImagePullerOptions {
  pull: (image: string, onLine: (line: string) => void, signal: AbortSignal) => Promise<void>;
  onProgress: (progress: ImagePullProgress) => void;
  /** After a successful pull (health re-checks the image). */
  onPulled: (image: string) => void;
}

/** "Copying blob sha256:ab… 12.3MiB / 45.0MiB" → 0.273; null when the line has no sizes. */
export function pullFraction(line: string): number | null {
  const match = /([\d.]+\s*[kMGT]?i?B)\s*\/\s*([\d.]+\s*[kMGT]?i?B)/i.exec(line);
  if (!match) return null;
  const done = parseHumanSize(match[1]!);
  const total = parseHumanSize(match[2]!);
  return done !== null && total ? Math.min(1, done / total) : null;
}

export class ImagePuller {
  private readonly pulling = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();

  constructor(private readonly options: ImagePullerOptions) {}

  /** Starts a pull unless one of the same image is already going; progress arrives as events. */
  start(image: string): { started: boolean } {
    if (this.pulling.has(image)) return { started: false };
    const report = (p: Omit<ImagePullProgress, 'image'>) => this.options.onProgress({ image, ...p });
    report({ phase: 'pulling', line: `Pulling ${image}…`, fraction: null, error: null });
    const job = this.options
      .pull(image, (line) => report({ phase: 'pulling', line, fraction: pullFraction(line), error: null }), this.abort.signal)
      .then(
        () => {
          report({ phase: 'done', line: `${image} is ready`, fraction: 1, error: null });
          this.options.onPulled(image);
        },
        (err: unknown) => report({ phase: 'failed', line: '', fraction: null, error: errorMessage(err) }),
      )
      .finally(() => this.pulling.delete(image));
    this.pulling.set(image, job);
    return { started: true };
  }

  /** Waits for pulls in flight (tests). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pulling.values()]);
  }

  /** Shutting down: pulls in flight are stopped (the runtime keeps the layers it already has). */
  async dispose(): Promise<void> {
    this.abort.abort();
    await this.settled();
  }
}
