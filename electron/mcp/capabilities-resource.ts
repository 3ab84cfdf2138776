// The capabilities resource [compat]: same URI, name and gist as the reference's, so agents that read it
// first keep working.
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import type { FolderInfo } from '../../shared/folders.js';
import { FIGURES_NOTE, HELPER_SUMMARY } from './run-python-tool.js';

export const CAPABILITIES_URI = 'resource://mcp-server-code-execution-mode/capabilities';

export const CAPABILITIES_TEXT = `# Code Execution MCP Capabilities

${HELPER_SUMMARY}

## Quick usage
- Pass \`servers=[...]\` to \`run_python\` to mount the named MCP servers as \`mcp_<alias>\` proxies for that run.
- Discover what exists first: \`runtime.discovered_servers()\` lists every configured server (add \`detailed=True\` for descriptions); \`runtime.search_tool_docs('query')\` finds tools by keyword.
- \`import mcp.runtime as runtime\` (also pre-bound as \`runtime\`) and call \`runtime.capability_summary()\` for the full manual.
- Prefer the \`_sync\` helpers (\`list_tools_sync\`, \`query_tool_docs_sync\`, \`search_tool_docs_sync\`) to read cached metadata before issuing RPCs.
- Call tools with keyword arguments: \`await mcp_<alias>.<tool>(arg=value)\`. A failed call raises \`runtime.MCPError\`.
- Server configs support \`cwd\`: check \`runtime.describe_server(name)\` or \`runtime.list_loaded_server_metadata()\`; when \`cwd\` is absent the server runs in the host's working directory.
- Every run is a fresh container with no network: nothing persists between runs, unless you ask for a session.
- Sessions keep state: pass \`session: "new"\`; the result's first line is \`session: <id>\`; pass that id to continue with the same variables and /workspace. Only the client that opened it can use the id. The sandbox is frozen between calls; a session ends after an idle spell, at its maximum age, on a timeout or memory kill, or when the code calls \`runtime.end_session()\`. Each call that ends normally leaves a checkpoint (the last few are kept, listed in the result's \`session.checkpoints\`): pass \`session: "<id>@<n>"\` to continue from the state right after call n, variables and /workspace; the calls after it are discarded. Threads the code started do not survive a step back.
- \`packages: ["duckdb==1.1.3"]\` installs pip requirements (wheels only; pin each with \`==\` so every run gets the same set) into a read-only layer that run imports from; the run itself still has no network.
- ${FIGURES_NOTE} PNG/JPEG and figures inline (up to 8), /workspace/out files and the rest as \`sandbar://runs/<runId>/artifacts/<name>\` links readable with \`resources/read\` while the run is in the history.

Resource URI: ${CAPABILITIES_URI}
`;

/**
 * The text with the user's folders (name, mount path, writable), so the model knows they exist. Never the
 * host path: the model needs only where to look inside the sandbox.
 */
export function capabilitiesText(folders: readonly FolderInfo[]): string {
  if (folders.length === 0) return CAPABILITIES_TEXT;
  const rows = folders.map((f) => `- \`${f.name}\` at \`${f.mountPath}\`: ${f.writable ? 'writable (files written there appear on the user\'s computer)' : 'read-only'}`);
  return `${CAPABILITIES_TEXT}
## The user's folders
Every run and session sees these folders of the user's (nothing in them can be executed; links that point outside a folder lead nowhere):
${rows.join('\n')}
`;
}

export function capabilitiesResource(folders: readonly FolderInfo[]): Resource {
  return {
    uri: CAPABILITIES_URI,
    name: 'code-execution-capabilities',
    title: 'Code Execution Sandbox Helpers',
    description:
      'Capability overview, helper reference, and sandbox usage notes (call runtime.capability_summary() inside the sandbox for this text).',
    mimeType: 'text/markdown',
    size: Buffer.byteLength(capabilitiesText(folders), 'utf8'),
  };
}

export const CAPABILITIES_RESOURCE: Resource = capabilitiesResource([]);
