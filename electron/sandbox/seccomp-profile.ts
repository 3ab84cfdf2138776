// Sandbar's own seccomp profile (seccomp/sandbar-seccomp.json, explained in seccomp/README.md), used with
// both Podman and Docker so the sandbox is equally strong whichever runtime the user has.
import { assetPath } from '../asset-path.js';

export const SECCOMP_MODES = ['sandbar', 'runtime-default'] as const;
export type SeccompMode = (typeof SECCOMP_MODES)[number];

/**
 * The runtime reads the profile by path, outside Electron's asar support, so in the packaged app the
 * path must point at the unpacked copy (electron-builder.yml unpacks the seccomp folder).
 */
export function unpackedPath(file: string): string {
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

export const SANDBAR_SECCOMP_PROFILE = unpackedPath(assetPath('sandbox/seccomp/sandbar-seccomp.json'));

export function seccompProfileFor(mode: SeccompMode): string | undefined {
  return mode === 'sandbar' ? SANDBAR_SECCOMP_PROFILE : undefined;
}
