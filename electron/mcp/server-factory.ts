// Builds one MCP server (one per HTTP session, one for stdio): identity, the run_python tool (and, for a
// client that renders MCP Apps, the run view's app-only tools), and the resources (resource-catalog.ts).
// Uses the SDK's low-level Server so the tool schema is exactly the reference's.
import { randomBytes } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ClientInfo } from '../../shared/execution.js';
import type { ArtifactStore } from './artifact-resource.js';
import { callerCredential } from './caller.js';
import type { FolderInfo } from '../../shared/folders.js';
import { readResource, RESOURCE_TEMPLATES, resourcesFor } from './resource-catalog.js';
import { RunOwners } from './run-owners.js';
import { handleRunPython, type RunPythonDeps } from './run-python-handler.js';
import { runPythonTool, TOOL_NAME } from './run-python-tool.js';
import { handleRunViewTool, isRunViewTool, rendersApps, runViewToolsFor, type RunViewDeps } from './run-view-tools.js';
import { refusalPayload, toolResult } from './tool-result.js';

export interface McpServerDeps extends RunPythonDeps {
  version: string;
  transport: 'stdio' | 'http';
  /** Where `resources/read` finds a run's artifacts (the history); without it every artifact is unknown. */
  artifacts?: ArtifactStore;
  /** Over stdio, the connection (the caller when no credential comes with a request); see caller.ts. */
  connection?: string;
  /** The run view's app-only tools (one per instance); without it they are neither listed nor answered. */
  runView?: RunViewDeps;
  /** The user's folders every sandbox mounts now, for the capabilities resource. */
  folders?: () => FolderInfo[];
}

export function createMcpServer(deps: McpServerDeps): Server {
  const server = new Server(
    { name: 'sandbar', version: deps.version },
    { capabilities: { tools: {}, resources: {}, logging: {} } },
  );

  // Over stdio the connection is the caller (caller.ts): `sandbar stdio` names it once per process; a server
  // made without one (in-process transports) is a connection of its own.
  const connection = deps.connection ?? randomBytes(16).toString('hex');
  // Without an instance-wide record (tests, in-process servers) this server remembers its own runs: an
  // artifact is never served to a caller that did not make the run.
  const owners = deps.owners ?? new RunOwners();
  deps = { ...deps, owners };

  const viewTools = () => (deps.runView ? runViewToolsFor(server.getClientCapabilities()) : []);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [runPythonTool(deps.settings().limits), ...viewTools()] }));

  // Installed as the protocol layer installs any handler, past the Server class's tools/call wrapper: the
  // dispatch has already validated the request against CallToolRequestSchema, and the wrapper would
  // validate it once more and then re-parse our own typed result with zod (together about half a
  // millisecond of every lone call, after the run, on its way out). The result goes out as we built it.
  const setProtocolHandler = Protocol.prototype.setRequestHandler as (this: Server, schema: typeof CallToolRequestSchema, handler: Parameters<Server['setRequestHandler']>[1]) => void;
  setProtocolHandler.call(server, CallToolRequestSchema, (request, extra) => {
    const credential = callerCredential(extra.authInfo, connection);
    if (isRunViewTool(request.params.name)) {
      return handleRunViewTool(request.params.name, request.params.arguments, { credential, appClient: rendersApps(server.getClientCapabilities()) }, deps.runView);
    }
    if (request.params.name !== TOOL_NAME) {
      return toolResult(refusalPayload('error', `Unknown tool: ${request.params.name}`), deps.settings().outputMode);
    }
    const peer = server.getClientVersion();
    const client: ClientInfo = { name: peer?.name ?? 'unknown', ...(peer?.version ? { version: peer.version } : {}), transport: deps.transport };
    // A client that declared elicitation can answer approvals for its own run's tool calls.
    const canElicit = server.getClientCapabilities()?.elicitation !== undefined;
    const args = request.params.arguments;
    const onSubmitted = deps.runView ? (runId: string) => deps.runView?.runs.track(runId, credential, args) : undefined;
    return handleRunPython(args, extra, client, deps, { canElicit, credential, ...(onSubmitted ? { onSubmitted } : {}) });
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: resourcesFor(deps.folders?.() ?? []) }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [...RESOURCE_TEMPLATES] }));

  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => {
    const { uri } = request.params;
    const credential = callerCredential(extra.authInfo, connection);
    const contents = readResource(uri, deps.artifacts, (runId) => owners.owns(runId, credential), deps.folders?.() ?? []);
    if (contents) return { contents: [contents] };
    throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`);
  });

  return server;
}
