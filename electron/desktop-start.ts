// `npm start`'s first step: is there an Electron binary to open the desktop app with? Without one (an
// install with ELECTRON_SKIP_BINARY_DOWNLOAD=1, a download a proxy or an offline mirror stopped) it says
// so in one line naming `npm run serve`, which needs no Electron, and exits 1 before anything is built.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { locateElectron, missingElectronLine } from './shell/electron-binary.js';

function electronPackageDir(): string | null {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

const lookup = locateElectron({
  packageDir: electronPackageDir(),
  env: process.env,
  readFile: (file) => (existsSync(file) ? readFileSync(file, 'utf8') : null),
  exists: existsSync,
});
if (!lookup.found) {
  console.error(missingElectronLine(lookup.reason));
  process.exit(1);
}
