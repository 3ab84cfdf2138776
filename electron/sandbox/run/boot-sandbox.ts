// Boots the in-container agent over an attached process (a CLI client, or a Kubernetes attach stream) and
// turns a failed start into words; every backend starts its sandboxes through this.
import { AppError } from '../../../shared/errors.js';
import { buildBootLine, DEFAULT_MAX_FRAME_BYTES, OUT_DIR } from '../agent/bootstrap.js';
import { bootExtras, type StartOptions } from '../backend.js';
import type { AttachedProcess } from './attached-process.js';
import { SandboxContainer } from './sandbox-container.js';

const BOOT_TIMEOUT_MS = 60_000;

/**
 * Boots the agent over an attached process (a CLI client, or a Kubernetes attach stream): writes the boot
 * line and waits for `ready`. On failure the client is detached; killing the sandbox is the caller's.
 */
export async function bootSandbox(
  name: string,
  proc: AttachedProcess,
  options: { idleTimeoutSec: number; modules: Record<string, string>; timeoutMs?: number } & Pick<StartOptions, 'preload' | 'mplFontCache'>,
): Promise<SandboxContainer> {
  const timeoutMs = options.timeoutMs ?? BOOT_TIMEOUT_MS;
  const bootLine = buildBootLine({
    idleTimeoutSec: options.idleTimeoutSec,
    maxFrameBytes: DEFAULT_MAX_FRAME_BYTES,
    modules: options.modules,
    outDir: OUT_DIR,
    ...bootExtras(options),
  });
  const container = new SandboxContainer(name, proc, bootLine, DEFAULT_MAX_FRAME_BYTES);
  container.preloading = options.preload !== undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the agent did not start within ${timeoutMs / 1000}s`)), timeoutMs);
  });
  try {
    await Promise.race([container.ready, timeout]);
    return container;
  } catch (err) {
    container.detachClient();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

export function explainStartFailure(image: string, detail: string): AppError {
  if (/image not known|no such image|unable to find image|pull access denied|not found.*image/i.test(detail)) {
    return new AppError('image_missing', `The sandbox image ${image} is not present. Pull it with \`npm run -s sandbar -- image pull\` or set SANDBAR_IMAGE. (${detail.trim()})`);
  }
  return new AppError('runtime_failed', `The container failed to start: ${detail.trim()}`);
}
