// A run's code with line numbers and Python highlighting.
import { useMemo } from 'react';
import { displayText } from '../../../shared/display-text.js';
import { highlightPython } from './highlight.js';

export function CodeBlock({ code: raw }: { code: string }) {
  // The agent's code as a person may read it: bidi controls cannot reorder it (Trojan Source), nothing hides.
  const code = useMemo(() => displayText(raw, { multiline: true }), [raw]);
  const html = useMemo(() => highlightPython(code), [code]);
  const lines = useMemo(() => {
    let n = 1;
    for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) n++;
    return Array.from({ length: n }, (_, i) => i + 1).join('\n');
  }, [code]);
  return (
    <div className="hist-code">
      <pre className="hist-code-gutter" aria-hidden="true">
        {lines}
      </pre>
      {html === null ? (
        <pre className="hist-code-text">
          <code>{code}</code>
        </pre>
      ) : (
        <pre className="hist-code-text">
          {/* highlight.js output only: the code is escaped by hljs before its spans are added. */}
          <code className="hljs language-python" dangerouslySetInnerHTML={{ __html: html }} />
        </pre>
      )}
    </div>
  );
}
