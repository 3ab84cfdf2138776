// highlight.js ships no types for its per-language entry points.
declare module 'highlight.js/lib/languages/python' {
  import type { LanguageFn } from 'highlight.js';
  const python: LanguageFn;
  export default python;
}
