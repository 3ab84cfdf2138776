// Dependencies placed where the packaged app needs them: every package the main process (or the CLI)
// imports at run time is a dependency, the Kubernetes client an optional one the desktop package leaves
// out, and what Vite bundles into the panel a devDependency (the app would carry it twice otherwise).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
const deps = pkg.dependencies ?? {};
const optional = pkg.optionalDependencies ?? {};
const dev = pkg.devDependencies ?? {};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Packages a source file loads at run time: value imports and require() of bare names (type imports are erased). */
function runtimePackages(sources: string[]): Set<string> {
  const found = new Set<string>();
  const name = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^import\s+(?!type\s)[^'";]*?from\s+'([^'.][^']*)'/gm)) found.add(name(m[1]!));
    for (const m of text.matchAll(/require\)?\(\s*'([^'.][^']*)'\s*\)|Require\(import\.meta\.url\)\('([^'.][^']*)'\)/g)) found.add(name((m[1] ?? m[2])!));
    // Loaded on first use (execa, better-sqlite3, the MCP client SDK): `typeof import(…)` is a type and is erased.
    for (const m of text.matchAll(/(?<!typeof\s)\bimport\(\s*'([^'.][^']*)'\s*\)/g)) found.add(name(m[1]!));
    for (const m of text.matchAll(/^export\s+(?!type\s)[^'";]*?from\s+'([^'.][^']*)'/gm)) found.add(name(m[1]!));
  }
  for (const builtin of [...found].filter((p) => p.startsWith('node:') || p === 'electron')) found.delete(builtin);
  return found;
}

describe('dependency placement', () => {
  it('every package the main process and the CLI load is a dependency (or the optional Kubernetes client)', () => {
    const used = runtimePackages([...files(path.join(root, 'electron')), ...files(path.join(root, 'shared'))]);
    const missing = [...used].filter((p) => !(p in deps) && !(p in optional));
    expect(missing).toEqual([]);
    expect(used.has('@kubernetes/client-node')).toBe(true);
    // Those only ever loaded lazily are seen too.
    for (const lazy of ['execa', 'better-sqlite3', '@modelcontextprotocol/sdk']) expect(used.has(lazy), lazy).toBe(true);
  });

  it('the Kubernetes client is optional, and the desktop package leaves it out', () => {
    expect(optional['@kubernetes/client-node']).toBeDefined();
    expect(deps['@kubernetes/client-node']).toBeUndefined();
    expect(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')).toMatch(/^\s+- "!node_modules\/@kubernetes\/\*\*"$/m);
  });

  it('what Vite bundles into the panel is a devDependency, unless the main process loads it too', () => {
    const panel = runtimePackages(files(path.join(root, 'renderer')).filter((f) => !f.endsWith('vite.config.ts')));
    // ext-apps is both: its App class is bundled into the run view, its /server constants load in the main process.
    const mainToo = runtimePackages([...files(path.join(root, 'electron')), ...files(path.join(root, 'shared'))]);
    for (const lib of ['react', 'react-dom', 'zustand', 'highlight.js', '@tanstack/react-virtual', 'eventsource-parser']) {
      expect(dev[lib], lib).toBeDefined();
      expect(deps[lib], lib).toBeUndefined();
    }
    expect(panel.has('zustand') && panel.has('eventsource-parser')).toBe(true);
    const inDeps = [...panel].filter((p) => p in deps && !mainToo.has(p));
    expect(inDeps).toEqual([]);
    for (const p of panel) expect(dev[p] ?? (mainToo.has(p) ? deps[p] : undefined), p).toBeDefined();
  });
});
