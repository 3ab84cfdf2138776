// Every message the code can show a person names a command that runs this checkout (`npm run -s sandbar --
// …`, `npm run serve`): no bare `sandbar …` (nothing of that name exists until someone links it) and no
// `npx sandbar` (an npm package of that name is not this project). Read from the source: every string,
// template and JSX text in electron/, shared/ and renderer/ (comments are not messages; the parser leaves
// them out).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const SUBCOMMANDS = 'serve|run|doctor|image|history|approvals|approve|deny|stdio';
const BARE = new RegExp(`(^|[^\\w/.\\-])sandbar (${SUBCOMMANDS})\\b`);
const NPX = /\bnpx\s+(-y\s+)?sandbar\b/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The text of every string literal, template part and JSX text in a file, with its line. */
function texts(file: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node) || ts.isJsxText(node)) {
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

describe('commands named in messages', () => {
  const all = ['electron', 'shared', 'renderer'].flatMap((dir) => sources(path.join(REPO, dir)).flatMap((file) => texts(file).map((t) => ({ ...t, where: `${path.relative(REPO, file)}:${t.line}` }))));

  it('no string, template or JSX text in electron/, shared/ or renderer/ names a bare or npx `sandbar` command', () => {
    const offenders = all.filter(({ text }) => BARE.test(text) || NPX.test(text)).map(({ where, text }) => `${where}: ${text.trim().slice(0, 120)}`);
    expect(offenders).toEqual([]);
  });

  it('every `npm run <script>` a message names is a script of this checkout', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const named = all.flatMap(({ where, text }) => [...text.matchAll(/\bnpm run (?:-s )?([\w:-]+)/g)].map((m) => ({ where, script: m[1]! })));
    expect(named.map((n) => n.script)).toEqual(expect.arrayContaining(['serve', 'sandbar']));
    expect(named.filter((n) => !scripts.includes(n.script))).toEqual([]);
  });

  it('the check sees what it looks for (a bare command in a template, JSX text, npx)', () => {
    for (const text of ['Pull it with `sandbar image pull`', 'answer: sandbar approve ', 'sandbar run', 'try npx -y sandbar serve']) expect(BARE.test(text) || NPX.test(text), text).toBe(true);
    for (const text of ['npm run -s sandbar -- image pull', 'sandbar: cannot open', 'sandbar-cli', 'node dist/electron/cli.js serve', 'sandbar.log']) expect(BARE.test(text) || NPX.test(text), text).toBe(false);
  });
});

describe("the README's and docs' commands", () => {
  const read = (file: string) => readFileSync(path.join(REPO, file), 'utf8');
  const docs = ['README.md', ...readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

  it('open with the desktop install, the headless one (no Electron binary needed) and the tests', () => {
    const [first, second] = [...read('README.md').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const lines = first!.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
    expect(lines).toEqual(['npm install && npm start', 'ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm install && npm run serve']);
    expect(second!.trim()).toBe('npm test');
  });

  it('name only npm scripts this checkout has, and never npx sandbar as a thing to run', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    for (const file of docs) {
      const text = read(file);
      const missing = [...text.matchAll(/\bnpm run (?:-s )?([\w:-]+)/g)].map((m) => m[1]!).filter((s) => !scripts.includes(s));
      expect(missing, file).toEqual([]);
      // Only ever as the thing not to do.
      for (const m of text.matchAll(/npx\s+(?:-y\s+)?sandbar\b/g)) expect(text.slice(Math.max(0, m.index - 40), m.index), file).toMatch(/never (as )?`?$|Never `?$/i);
    }
  });
});
