// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SnippetText } from '../../../../renderer/features/history/snippet-text.js';
import { CodeBlock } from '../../../../renderer/features/history/code-block.js';
import { highlightPython, MAX_HIGHLIGHT_CHARS } from '../../../../renderer/features/history/highlight.js';
import { exportFileName } from '../../../../renderer/features/history/export-json.js';

afterEach(cleanup);

describe('SnippetText', () => {
  it('marks exactly the hit parts', () => {
    const { container } = render(
      <div>
        <SnippetText
          parts={[
            { text: 'import ', hit: false },
            { text: 'os', hit: true },
            { text: '\nprint(', hit: false },
            { text: 'os', hit: true },
            { text: '.path)', hit: false },
          ]}
        />
      </div>,
    );
    const marks = [...container.querySelectorAll('mark')];
    expect(marks.map((m) => m.textContent)).toEqual(['os', 'os']);
    // Newlines fold into spaces so the excerpt stays one line.
    expect(container.textContent).toBe('import os print(os.path)');
  });

  it('renders markup in the text as text', () => {
    const { container } = render(
      <div>
        <SnippetText
          parts={[
            { text: '<img src=x onerror=alert(1)>', hit: false },
            { text: '<b>bold</b>', hit: true },
          ]}
        />
      </div>,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelectorAll('mark')).toHaveLength(1);
    expect(container.querySelector('mark')!.textContent).toBe('<b>bold</b>');
  });
});

describe('code highlighting', () => {
  it('escapes the code before adding its own spans', () => {
    const html = highlightPython('x = "</code><script>alert(1)</script>"  # <b>\nif x: pass')!;
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<span class="hljs-keyword">if</span>');
  });

  it('renders highlighted code with one gutter number per line and no injected elements', () => {
    const { container } = render(<CodeBlock code={'import os\n# <img src=x onerror=alert(1)>\nprint(os.getcwd())'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('.hljs-keyword')?.textContent).toBe('import');
    expect(container.querySelector('.hist-code-gutter')!.textContent).toBe('1\n2\n3');
  });

  it('shows very long code plain instead of highlighting it', () => {
    const long = 'x = 1\n'.repeat(MAX_HIGHLIGHT_CHARS / 6 + 10);
    expect(highlightPython(long)).toBeNull();
    const { container } = render(<CodeBlock code={long} />);
    expect(container.querySelector('.hljs-keyword, .hljs-number')).toBeNull();
    expect(container.querySelector('.hist-code-text')!.textContent).toBe(long);
  });
});

describe('export file name', () => {
  it('is sandbar-run-<id>.json, safe for any file system', () => {
    expect(exportFileName('ab12-cd')).toBe('sandbar-run-ab12-cd.json');
    expect(exportFileName('../x/y')).toBe('sandbar-run-.._x_y.json');
  });
});
