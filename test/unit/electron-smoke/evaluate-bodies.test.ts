// The smoke test runs under tsx, whose esbuild keepNames wraps named inner functions in a `__name(...)`
// helper. Playwright sends evaluate() callbacks to the page or the main process as source text, where
// that helper does not exist: a named inner function there would fail only on a machine with Electron.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';

const files = ['smoke-run.ts', 'smoke-run-python.ts', 'smoke-support.ts'].map((name) => fileURLToPath(new URL(`../../electron/${name}`, import.meta.url)));

/** The argument text of every `.evaluate(` call (balanced parentheses; this code has none in strings). */
function evaluateBodies(code: string): string[] {
  const bodies: string[] = [];
  for (let at = code.indexOf('.evaluate('); at !== -1; at = code.indexOf('.evaluate(', at + 1)) {
    let depth = 0;
    const start = at + '.evaluate'.length;
    for (let i = start; i < code.length; i++) {
      if (code[i] === '(') depth++;
      else if (code[i] === ')' && --depth === 0) {
        bodies.push(code.slice(start, i + 1));
        break;
      }
    }
  }
  return bodies;
}

describe('evaluate() callbacks of the smoke test', () => {
  it('finds the callbacks (the scan is not vacuous) and a named inner function in one', async () => {
    const sample = (await transform('page.evaluate(() => { const f = (x: number) => x; return f(1); });', { loader: 'ts', keepNames: true })).code;
    expect(evaluateBodies(sample).join('')).toContain('__name(');
  });

  it('carry no __name helper once compiled as tsx compiles them', async () => {
    let count = 0;
    for (const file of files) {
      const { code } = await transform(readFileSync(file, 'utf8'), { loader: 'ts', keepNames: true, format: 'esm' });
      for (const body of evaluateBodies(code)) {
        count++;
        expect(body, `${file}: ${body.slice(0, 200)}`).not.toContain('__name(');
      }
    }
    expect(count).toBeGreaterThanOrEqual(8);
  });
});
