// The one tool, `run_python` [compat]: its description, input schema and helper summary are what prompts
// written for the reference bridge expect, so they stay word for word (minus save_tool, which Sandbar
// does not offer: code from one run never executes in a later one). Each parameter of our own teaches
// itself in one short phrase; the capabilities resource says more (figures, sessions, packages).
import { RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Limits } from '../../shared/limits.js';
import { RUN_VIEW_URI } from '../../shared/run-view.js';

export const TOOL_NAME = 'run_python';

/** ~60 tokens: names only the discovery helpers, so the context cost is the same for 1 server or 500. */
export const HELPER_SUMMARY =
  "Python Sandbox. 1. DISCOVER: `runtime.discovered_servers()`, `runtime.search_tool_docs('query')`. " +
  'Use `discovered_servers(detailed=True)` for descriptions. 2. CALL: `await mcp_server.tool()`. ' +
  'Run `print(runtime.capability_summary())` for the full manual.';

/** The reference's tool description, word for word. */
export const REFERENCE_DESCRIPTION =
  "Execute Python code inside a rootless container sandbox. Use the optional 'servers' array to load MCP servers for this execution.";

/**
 * What the model sees of the tool (name, description, input schema) stays within this many bytes of JSON,
 * with the largest timeouts. The reference's own text takes 885 of them, so our parameters get a phrase
 * each and nothing more; the capabilities resource carries the rest.
 */
export const MODEL_VISIBLE_BYTES = 1024;

/** `session` (issue 15): opt-in state; how a session ends is in the capabilities resource. `id@n` (issue 28)
 * steps back to the state right after call n. */
export const SESSION_PHRASE = "'new' opens; id continues; id@n after call n";

/** `packages` (issue 16): what an entry looks like (the handler checks each one). */
export const PACKAGES_PHRASE = 'pip requirements pinned with ==';

/** What comes back besides text (issue 14): said in the capabilities resource, and shown by every result. */
export const FIGURES_NOTE = 'Figures come back.';

export function runPythonTool(limits: Pick<Limits, 'timeoutSec' | 'maxTimeoutSec'>): Tool {
  return {
    name: TOOL_NAME,
    description: REFERENCE_DESCRIPTION,
    inputSchema: {
      type: 'object',
      properties: {
        code: {
          type: 'string',
          description: `Python source code to execute. Call runtime.capability_summary() inside the sandbox for this digest. ${HELPER_SUMMARY}`,
        },
        servers: {
          type: 'array',
          items: { type: 'string' },
          description: 'Optional list of MCP servers to make available as mcp_<name> proxies',
        },
        // No `type` on our own two: the phrase says what goes there in fewer bytes, and the handler checks
        // each value with the same messages a schema would give.
        packages: { description: PACKAGES_PHRASE },
        session: { description: SESSION_PHRASE },
        timeout: {
          type: 'integer',
          minimum: 1,
          maximum: limits.maxTimeoutSec,
          default: limits.timeoutSec,
          description: 'Execution timeout in seconds',
        },
      },
      required: ['code'],
    },
    // The run view (MCP Apps): hosts that implement them render it beside the call; the model never sees
    // `_meta`. The flat key is the extension's older spelling, which some hosts still read.
    _meta: { ui: { resourceUri: RUN_VIEW_URI }, [RESOURCE_URI_META_KEY]: RUN_VIEW_URI },
  };
}
