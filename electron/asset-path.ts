// Files shipped beside the code (the agent's Python, the seccomp profile, the pip tunnel), found under the
// folder that holds the main-process code: electron/ when it runs from source (tsx, tests), dist/electron/
// once built. Not from each module's own URL: the CLI is bundled (dist/electron/cli.js and its chunks in
// dist/electron/cli-chunks/), and there every module has its chunk's URL.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from './package-info.js';

let codeDir: string | undefined;

export function assetPath(relative: string): string {
  if (!codeDir) {
    const root = packageRoot();
    const built = path.relative(root, fileURLToPath(import.meta.url)).split(path.sep)[0] === 'dist';
    codeDir = built ? path.join(root, 'dist', 'electron') : path.join(root, 'electron');
  }
  return path.join(codeDir, relative);
}
