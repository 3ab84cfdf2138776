// Python syntax highlighting with highlight.js core and the one language we need (keeps the bundle small).
import hljs from 'highlight.js/lib/core';
import python from 'highlight.js/lib/languages/python';

if (!hljs.getLanguage('python')) hljs.registerLanguage('python', python);

/** Past this many characters the code is shown plain: highlighting megabytes would freeze the panel. */
export const MAX_HIGHLIGHT_CHARS = 200_000;

/**
 * Highlighted HTML for `code`, or null when it is too long to highlight. highlight.js escapes the text
 * it wraps (`<`, `>`, `&`, quotes), so the result holds no markup but its own `<span class="hljs-…">`.
 */
export function highlightPython(code: string): string | null {
  if (code.length > MAX_HIGHLIGHT_CHARS) return null;
  return hljs.highlight(code, { language: 'python', ignoreIllegals: true }).value;
}
