// Where the `electron` package's binary is, found the way its index.js finds it, without requiring it: a
// binary-less package (ELECTRON_SKIP_BINARY_DOWNLOAD=1, a failed download) throws on require, and newer
// Electron versions try to download on the first require. Used by `npm start` and the desktop smoke test.
import path from 'node:path';

export type BinaryLookup = { found: true; path: string } | { found: false; reason: string };

export function locateElectron(options: {
  /** node_modules/electron, or null when the package is not installed. */
  packageDir: string | null;
  env: NodeJS.ProcessEnv;
  readFile: (file: string) => string | null;
  exists: (file: string) => boolean;
}): BinaryLookup {
  if (!options.packageDir) return { found: false, reason: 'the electron package is not installed' };
  const relative = options.readFile(path.join(options.packageDir, 'path.txt'))?.trim() || null;
  const override = options.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!relative && !override) return { found: false, reason: 'node_modules/electron has no binary (it was installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or its download failed)' };
  const binary = override ? path.join(override, relative ?? 'electron') : path.join(options.packageDir, 'dist', relative!);
  return options.exists(binary) ? { found: true, path: binary } : { found: false, reason: `${binary} does not exist` };
}

/** `npm start`'s one line when the desktop app cannot open: why, and the command that works without it. */
export function missingElectronLine(reason: string): string {
  return `Sandbar: cannot open the desktop app: ${reason}. \`npm run serve\` runs the same Sandbar without Electron, with the panel in your browser.`;
}
