// No import circles in electron/, shared/ or renderer/, type-only imports included: a circle means two files
// that cannot be read (or moved) apart, which is what the backend contract (sandbox/backend.ts) exists to break.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** Relative imports of each file (static, type-only, re-exports and dynamic), resolved to repo paths. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true);
    const deps = importedFiles
      .map((i) => i.fileName)
      .filter((s) => s.startsWith('.'))
      .map((s) => path.normalize(path.join(path.dirname(file), s)).replace(/\.js$/, ''))
      .flatMap((base) => [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].filter((c) => known.has(c)).slice(0, 1));
    graph.set(file, deps);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan): each is one circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import circles', () => {
  it('finds a circle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('reads type-only imports and re-exports as edges', () => {
    const graph = importGraph(['electron/sandbox/probe.ts', 'electron/sandbox/backend.ts']);
    expect(graph.get('electron/sandbox/probe.ts')).toContain('electron/sandbox/backend.ts');
  });

  for (const dir of ['electron', 'shared', 'renderer']) {
    it(`${dir}/ has none`, () => {
      expect(circles(importGraph(sourceFiles(dir)))).toEqual([]);
    });
  }
});
