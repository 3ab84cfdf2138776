import { describe, expect, it } from 'vitest';
import { diffStats, parseUnifiedDiff } from '../../../../renderer/components/diff-parse.js';

const DIFF = `Index: /home/u/.cursor/mcp.json
===================================================================
--- /home/u/.cursor/mcp.json
+++ /home/u/.cursor/mcp.json
@@ -1,3 +1,4 @@
 {
-  "a": 1
+  "a": 1,
+  "sandbar": {}
 }
\\ No newline at end of file
`;

describe('parseUnifiedDiff', () => {
  it('labels header, hunk, added, removed and context lines with their line numbers', () => {
    const lines = parseUnifiedDiff(DIFF);
    expect(lines.map((l) => l.kind)).toEqual(['meta', 'meta', 'meta', 'meta', 'hunk', 'context', 'del', 'add', 'add', 'context', 'note']);
    expect(lines[5]).toEqual({ kind: 'context', text: '{', oldNo: 1, newNo: 1 });
    expect(lines[6]).toEqual({ kind: 'del', text: '  "a": 1', oldNo: 2, newNo: null });
    expect(lines[8]).toEqual({ kind: 'add', text: '  "sandbar": {}', oldNo: null, newNo: 3 });
    expect(lines[9]).toEqual({ kind: 'context', text: '}', oldNo: 3, newNo: 4 });
    expect(diffStats(lines)).toEqual({ added: 2, removed: 1 });
  });

  it('reads a removed line that looks like a file header inside a hunk as a removal', () => {
    const lines = parseUnifiedDiff('@@ -1,2 +1,1 @@\n--- not a header\n keep\n');
    expect(lines.map((l) => l.kind)).toEqual(['hunk', 'del', 'context']);
  });

  it('handles several hunks and an empty diff', () => {
    const lines = parseUnifiedDiff('@@ -1 +1 @@\n-a\n+b\n@@ -10,1 +10,1 @@\n-x\n+y\n');
    expect(lines.filter((l) => l.kind === 'hunk')).toHaveLength(2);
    expect(lines.at(-1)).toEqual({ kind: 'add', text: 'y', oldNo: null, newNo: 10 });
    expect(parseUnifiedDiff('')).toEqual([]);
  });
});
