// The product's own package.json, found by walking up from this file: the same code runs from
// electron/ (tsx, tests) and from dist/electron/ (the built CLI).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

let cached: { name: string; version: string } | undefined;

export function packageInfo(): { name: string; version: string } {
  cached ??= JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { name: string; version: string };
  return cached;
}
