// Builds one MCP server (one per HTTP session, one for stdio): identity, the run_python tool and the
// capabilities resource. Uses the SDK's low-level Server so the tool schema is exactly the reference's.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ClientInfo } from '../../shared/execution.js';
import { CAPABILITIES_RESOURCE, CAPABILITIES_TEXT, CAPABILITIES_URI } from './capabilities-resource.js';
import { handleRunPython, type RunPythonDeps } from './run-python-handler.js';
import { runPythonTool, TOOL_NAME } from './run-python-tool.js';
import { refusalPayload, toolResult } from './tool-result.js';

export interface McpServerDeps extends RunPythonDeps {
  version: string;
  transport: 'stdio' | 'http';
}

export function createMcpServer(deps: McpServerDeps): Server {
  const server = new Server(
    { name: 'sandbar', version: deps.version },
    { capabilities: { tools: {}, resources: {}, logging: {} } },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [runPythonTool(deps.settings().limits)] }));

  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    if (request.params.name !== TOOL_NAME) {
      return toolResult(refusalPayload('error', `Unknown tool: ${request.params.name}`), deps.settings().outputMode);
    }
    const peer = server.getClientVersion();
    const client: ClientInfo = { name: peer?.name ?? 'unknown', ...(peer?.version ? { version: peer.version } : {}), transport: deps.transport };
    return handleRunPython(request.params.arguments, extra, client, deps);
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [CAPABILITIES_RESOURCE] }));

  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    if (request.params.uri !== CAPABILITIES_URI) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}`);
    return { contents: [{ uri: CAPABILITIES_URI, mimeType: 'text/markdown', text: CAPABILITIES_TEXT }] };
  });

  return server;
}
