// Builds one MCP server (one per HTTP session, one for stdio): identity, the run_python tool, the
// capabilities resource and the runs' artifacts (a resource template). Uses the SDK's low-level Server so
// the tool schema is exactly the reference's.
import { randomBytes } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
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
import { ARTIFACT_TEMPLATE, readArtifact, type ArtifactStore } from './artifact-resource.js';
import { CAPABILITIES_RESOURCE, CAPABILITIES_TEXT, CAPABILITIES_URI } from './capabilities-resource.js';
import { callerCredential } from './caller.js';
import { handleRunPython, type RunPythonDeps } from './run-python-handler.js';
import { runPythonTool, TOOL_NAME } from './run-python-tool.js';
import { refusalPayload, toolResult } from './tool-result.js';

export interface McpServerDeps extends RunPythonDeps {
  version: string;
  transport: 'stdio' | 'http';
  /** Where `resources/read` finds a run's artifacts (the history); without it every artifact is unknown. */
  artifacts?: ArtifactStore;
  /** Over stdio, the connection (the caller when no credential comes with a request); see caller.ts. */
  connection?: string;
}

export function createMcpServer(deps: McpServerDeps): Server {
  const server = new Server(
    { name: 'sandbar', version: deps.version },
    { capabilities: { tools: {}, resources: {}, logging: {} } },
  );

  // Over stdio the connection is the caller (caller.ts): `sandbar stdio` names it once per process; a server
  // made without one (in-process transports) is a connection of its own.
  const connection = deps.connection ?? randomBytes(16).toString('hex');

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [runPythonTool(deps.settings().limits)] }));

  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    if (request.params.name !== TOOL_NAME) {
      return toolResult(refusalPayload('error', `Unknown tool: ${request.params.name}`), deps.settings().outputMode);
    }
    const peer = server.getClientVersion();
    const client: ClientInfo = { name: peer?.name ?? 'unknown', ...(peer?.version ? { version: peer.version } : {}), transport: deps.transport };
    // A client that declared elicitation can answer approvals for its own run's tool calls.
    const canElicit = server.getClientCapabilities()?.elicitation !== undefined;
    return handleRunPython(request.params.arguments, extra, client, deps, { canElicit, credential: callerCredential(extra.authInfo, connection) });
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [CAPABILITIES_RESOURCE] }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [ARTIFACT_TEMPLATE] }));

  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    if (uri === CAPABILITIES_URI) return { contents: [{ uri: CAPABILITIES_URI, mimeType: 'text/markdown', text: CAPABILITIES_TEXT }] };
    const artifact = readArtifact(uri, deps.artifacts);
    if (artifact) return { contents: [artifact] };
    throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`);
  });

  return server;
}
