// The house rules for source files (docs/ARCHITECTURE.md): none over 400 lines, and each one opens with a
// comment that says what it is for, so a reader knows a file's room and job before reading its code.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const MAX_LINES = 400;
const SOURCE = /\.(ts|tsx|mts|js|mjs|cjs|py|css)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return ['node_modules', 'dist', 'test-results'].includes(e.name) ? [] : sourceFiles(rel);
    return SOURCE.test(e.name) ? [rel] : [];
  });
}

/** The first line that is not a shebang or blank opens a comment (`//`, `/*`, `#`, or a docstring). */
function opensWithComment(text: string): boolean {
  const first = text.split('\n').find((line, i) => line.trim() !== '' && !(i === 0 && line.startsWith('#!'))) ?? '';
  return /^\s*(\/\/|\/\*|#|"""|''')/.test(first);
}

const files = ['electron', 'renderer', 'shared', 'test'].flatMap(sourceFiles);

describe('source files', () => {
  it('are found (the walk is not empty)', () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it('tells a comment from code', () => {
    expect(opensWithComment('#!/usr/bin/env node\n// The CLI.\nimport x;')).toBe(true);
    expect(opensWithComment('\n/* The Live view. */\n.run {}')).toBe(true);
    expect(opensWithComment("import { x } from 'y';\n// late")).toBe(false);
  });

  it(`are at most ${MAX_LINES} lines`, () => {
    const long = files.map((f) => [f, readFileSync(path.join(root, f), 'utf8').split('\n').length - 1] as const).filter(([, n]) => n > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('open with a comment that says what they are for', () => {
    expect(files.filter((f) => !opensWithComment(readFileSync(path.join(root, f), 'utf8')))).toEqual([]);
  });
});
