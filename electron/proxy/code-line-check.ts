// Whether the code line shown with a question plausibly made that call. The sandbox reports the line
// number; the text is the host's own copy of that line (sandbox/run/code-line.ts), so forged code can only
// point at another line of the code it was given. A question shows the line only when its text calls the
// same server and tool, by the simple rule below; otherwise the person sees no line at all rather than a
// harmless-looking one.
//
// The rule: the line mentions the server (its name, or its Python alias as in `mcp_<alias>`) and the tool
// (its name, or its alias as in `mcp_<alias>.<tool_alias>(...)`); the `call_tool("server", "tool", ...)` form
// names both, so it passes too. Aliases follow the agent's rules (agent/mcp_aliases.py, without the _2 suffixes of repeats: the
// base is a prefix of every repeat).

const PYTHON_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '),
);

function aliasBase(lowered: string, junk: RegExp, empty: string): string {
  let alias = lowered.replace(junk, '_') || empty;
  if (/^[0-9]/.test(alias)) alias = `_${alias}`;
  return PYTHON_KEYWORDS.has(alias) ? `${alias}_` : alias;
}

export const serverAliasBase = (name: string) => aliasBase(name.toLowerCase(), /[^a-z0-9_]+/g, 'server');
export const toolAliasBase = (name: string) => aliasBase(name.trim().replace(/[^0-9a-zA-Z_]+/g, '_').toLowerCase(), /[^0-9a-z_]+/g, 'tool');

/** `line N: text` as code-line.ts writes it; the text alone. */
function lineText(codeLine: string): string {
  const match = /^line \d+: ([\s\S]*)$/.exec(codeLine);
  return match ? match[1]! : codeLine;
}

export function codeLineCallsTool(codeLine: string, server: string, tool: string): boolean {
  const text = lineText(codeLine);
  const mentionsServer = text.includes(server) || text.includes(serverAliasBase(server));
  const mentionsTool = text.includes(tool) || text.includes(toolAliasBase(tool));
  return mentionsServer && mentionsTool;
}
