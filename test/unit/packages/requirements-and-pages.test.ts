// Requirement strings never become options, URLs or paths; index pages are read and rewritten faithfully.
import { describe, expect, it } from 'vitest';
import { isWheel, parseSimplePage, renderSimplePage } from '../../../electron/packages/simple-page.js';
import { normalizePackageName, parseRequirement } from '../../../shared/packages.js';

describe('parseRequirement', () => {
  it.each([
    ['openpyxl', 'openpyxl', false],
    ['duckdb==1.1.3', 'duckdb', true],
    ['Scikit_Learn>=1.3,<2', 'scikit-learn', false],
    ['numpy~=1.26.0', 'numpy', false],
  ])('accepts %s', (text, name, pinned) => {
    expect(parseRequirement(text)).toEqual({ text, name, pinned });
  });

  it.each(['--index-url=http://x/', '-r requirements.txt', 'pkg @ https://x/y.whl', './local', 'pkg[extra]', 'pkg; python_version<"3"', 'a b', '', 'pkg==1.0 --pre', `x${'y'.repeat(300)}`])(
    'refuses %j with a message that says what to write',
    (text) => {
      const result = parseRequirement(text);
      expect('error' in result && result.error).toMatch(/requirement|characters/);
    },
  );

  it('normalises names as index URLs spell them', () => {
    expect(normalizePackageName('Foo__Bar.baz')).toBe('foo-bar-baz');
  });
});

describe('simple pages', () => {
  const page = `<!DOCTYPE html><html><body>
    <a href="../../files/a/tinypkg-2.0-py3-none-any.whl#sha256=${'a'.repeat(64)}" data-requires-python="&gt;=3.8">tinypkg-2.0-py3-none-any.whl</a><br/>
    <a href='https://files.example/tinypkg-2.0.tar.gz#sha256=${'b'.repeat(64)}' data-yanked="">tinypkg-2.0.tar.gz</a>
    <a href="javascript:alert(1)">evil</a>
    <a href="/nohash/tinypkg-1.0-py3-none-any.whl">tinypkg-1.0-py3-none-any.whl</a>
  </body></html>`;

  it('reads files, hashes, Python requirements and yanked flags, resolving relative links', () => {
    const files = parseSimplePage(page, 'https://index.example/simple/tinypkg/');
    expect(files).toEqual([
      { filename: 'tinypkg-2.0-py3-none-any.whl', url: 'https://index.example/files/a/tinypkg-2.0-py3-none-any.whl', sha256: 'a'.repeat(64), requiresPython: '>=3.8', yanked: false },
      { filename: 'tinypkg-2.0.tar.gz', url: 'https://files.example/tinypkg-2.0.tar.gz', sha256: 'b'.repeat(64), requiresPython: null, yanked: true },
      { filename: 'tinypkg-1.0-py3-none-any.whl', url: 'https://index.example/nohash/tinypkg-1.0-py3-none-any.whl', sha256: null, requiresPython: null, yanked: false },
    ]);
    expect(files.map((f) => isWheel(f.filename))).toEqual([true, false, true]);
  });

  it('writes pages for pip with escaped attributes and the hash on every link', () => {
    const [file] = parseSimplePage(page, 'https://index.example/simple/tinypkg/');
    const html = renderSimplePage('tinypkg', [{ file: file!, href: '/files/x/tinypkg-2.0-py3-none-any.whl' }]);
    expect(html).toContain(`<a href="/files/x/tinypkg-2.0-py3-none-any.whl#sha256=${'a'.repeat(64)}" data-requires-python="&gt;=3.8">tinypkg-2.0-py3-none-any.whl</a>`);
    expect(parseSimplePage(html, 'http://proxy/simple/tinypkg/')[0]).toMatchObject({ requiresPython: '>=3.8', sha256: 'a'.repeat(64) });
  });
});
