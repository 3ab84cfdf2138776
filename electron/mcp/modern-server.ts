// Builds the MCP server for revision 2026-07-28 (the v2 SDK; stateless: one instance per HTTP request, or
// per stdio connection): the same run_python, capabilities resource and artifacts as server-factory.ts
// builds for 2025-11-25 and older, through the same handler. What differs is the revision's own: the
// client's identity and capabilities come with each request, and approvals reach the client as
// input-required results (held-runs.ts) instead of `elicitation/create` requests.
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ClientCapabilities,
  type Implementation,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import type { ClientInfo } from '../../shared/execution.js';
import { errorMessage } from '../../shared/errors.js';
import { callerCredential } from './caller.js';
import type { HeldRuns, RunAnswer } from './held-runs.js';
import { readResource, RESOURCE_TEMPLATES, resourcesFor } from './resource-catalog.js';
import { RunOwners } from './run-owners.js';
import { handleRunPython, type ToolCallExtra } from './run-python-handler.js';
import { runPythonTool, TOOL_NAME } from './run-python-tool.js';
import { handleRunViewTool, isRunViewTool, rendersApps, runViewToolsFor } from './run-view-tools.js';
import type { McpServerDeps } from './server-factory.js';
import { refusalPayload, toolResult } from './tool-result.js';

export const MODERN_PROTOCOL_VERSION = '2026-07-28';

export interface ModernServerDeps extends McpServerDeps {
  /** The instance's held runs; without them a client's approvals are asked on the other channels only. */
  held?: HeldRuns;
}

/** The identity and capabilities a 2026-07-28 request carries in its `_meta` envelope (the SDK types it loosely). */
interface Envelope {
  [CLIENT_INFO_META_KEY]?: Implementation;
  [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities;
}

/** The request's context in the shape the shared handler reads (2026-07-28 has no server-to-client requests). */
function toolCallExtra(ctx: ServerContext): ToolCallExtra {
  return {
    signal: ctx.mcpReq.signal,
    ...(ctx.mcpReq._meta ? { _meta: ctx.mcpReq._meta } : {}),
    ...(ctx.http?.authInfo ? { authInfo: ctx.http.authInfo } : {}),
    sendNotification: (notification) => ctx.mcpReq.notify(notification),
    sendRequest: () => Promise.reject(new Error('MCP 2026-07-28 has no server-to-client requests')),
  };
}

export function createModernMcpServer(deps: ModernServerDeps): Server {
  // One server per request on this revision: the instance's record of who made each run (mcp-deps.ts) is
  // what lets a later request read its artifacts; without one, only runs made through this server object.
  const owners = deps.owners ?? new RunOwners();
  deps = { ...deps, owners };
  const server = new Server(
    { name: 'sandbar', version: deps.version },
    { capabilities: { tools: {}, resources: {}, logging: {} }, supportedProtocolVersions: [MODERN_PROTOCOL_VERSION] },
  );

  // The same JSON Schema object; only the two SDKs' TypeScript types for it differ.
  // The client's capabilities come with each request on this revision: a client that renders MCP Apps is told of the View's tools.
  const capabilitiesOf = (ctx: ServerContext) => (ctx.mcpReq.envelope as Envelope | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  server.setRequestHandler('tools/list', (_request, ctx) => ({
    tools: [runPythonTool(deps.settings().limits), ...(deps.runView ? runViewToolsFor(capabilitiesOf(ctx)) : [])] as Tool[],
  }));

  server.setRequestHandler('tools/call', async (request, ctx): Promise<RunAnswer> => {
    if (isRunViewTool(request.params.name)) {
      const caller = { credential: callerCredential(ctx.http?.authInfo, deps.connection), appClient: rendersApps(capabilitiesOf(ctx)) };
      return handleRunViewTool(request.params.name, request.params.arguments, caller, deps.runView);
    }
    if (request.params.name !== TOOL_NAME) {
      return toolResult(refusalPayload('error', `Unknown tool: ${request.params.name}`), deps.settings().outputMode);
    }
    const envelope = ctx.mcpReq.envelope as Envelope | undefined;
    const peer = envelope?.[CLIENT_INFO_META_KEY];
    const client: ClientInfo = { name: peer?.name ?? 'unknown', ...(peer?.version ? { version: peer.version } : {}), transport: deps.transport };
    const credential = callerCredential(ctx.http?.authInfo, deps.connection);
    const extra = toolCallExtra(ctx);
    const state = ctx.mcpReq.requestState<string>();
    const args = request.params.arguments;
    if (state !== undefined) {
      if (!deps.held) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid requestState: this server holds no runs', { reason: 'unknown-run' });
      try {
        return await deps.held.resume(state, credential, args, ctx.mcpReq.inputResponses, extra);
      } catch (err) {
        if (err instanceof ProtocolError) throw err;
        deps.log.error(`run_python failed unexpectedly: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        return toolResult({ status: 'error', summary: 'Unexpected failure', error: errorMessage(err) }, deps.settings().outputMode);
      }
    }
    // The client's capabilities come with each request on this revision.
    const canElicit = envelope?.[CLIENT_CAPABILITIES_META_KEY]?.elicitation !== undefined;
    const hold = canElicit && deps.held ? deps.held.hold(credential, args) : undefined;
    const onSubmitted = deps.runView ? (runId: string) => deps.runView?.runs.track(runId, credential, args) : undefined;
    return handleRunPython(args, extra, client, deps, { credential, ...(hold ? { hold } : {}), ...(onSubmitted ? { onSubmitted } : {}) });
  });

  server.setRequestHandler('resources/list', () => ({ resources: resourcesFor(deps.folders?.() ?? []) }));

  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [...RESOURCE_TEMPLATES] }));

  server.setRequestHandler('resources/read', (request, ctx) => {
    const { uri } = request.params;
    const credential = callerCredential(ctx.http?.authInfo, deps.connection);
    const contents = readResource(uri, deps.artifacts, (runId) => owners.owns(runId, credential), deps.folders?.() ?? []);
    if (contents) return { contents: [contents] };
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource: ${uri}`);
  });

  return server;
}
