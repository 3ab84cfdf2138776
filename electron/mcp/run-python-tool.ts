// The one tool, `run_python` [compat]: its description, input schema and helper summary are what prompts
// written for the reference bridge expect, so they stay word for word (minus save_tool, which Sandbar
// does not offer: code from one run never executes in a later one), plus one short line of our own: figures
// come back, and sessions keep state (the capabilities resource says more).
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

/** What comes back besides text (issue 14); with SESSION_NOTE the whole tools/list stays within 1 KiB. */
export const FIGURES_NOTE = 'Figures come back.';

/** Stateful sessions (issue 15), opt-in; how to continue and end one is in the capabilities resource. */
export const SESSION_NOTE = "session='new' keeps state.";

export function runPythonTool(limits: Pick<Limits, 'timeoutSec' | 'maxTimeoutSec'>): Tool {
  return {
    name: TOOL_NAME,
    description:
      "Execute Python code inside a rootless container sandbox. Use the optional 'servers' array to load MCP servers for this execution. " +
      `${FIGURES_NOTE} ${SESSION_NOTE}`,
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
        // pip requirements ("duckdb==1.1.3"), wheels only. The name says enough and tools/list has 1 KiB, so
        // no description or item schema: the handler checks each entry is a requirement string.
        packages: { type: 'array' },
        // "new" or a session id; no schema beyond the name, for the same 1 KiB (the handler checks it).
        session: {},
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
