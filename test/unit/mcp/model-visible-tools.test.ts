// What the model sees of tools/list stays within 1,024 bytes on both MCP revisions, whether the client
// renders MCP Apps or not: name, description and input schema of every tool the model may call. The run
// view's app-only tools are listed only to clients that declare MCP Apps, marked `visibility: ["app"]`,
// and refused to any other caller; run_python points at the View on both revisions.
import { Client as ModernClient, InMemoryTransport as ModernMemory } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { serveStdio as serveModern } from '@modelcontextprotocol/server/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createModernMcpServer, MODERN_PROTOCOL_VERSION } from '../../../electron/mcp/modern-server.js';
import { RunViewRuns } from '../../../electron/mcp/run-view-runs.js';
import { createMcpServer, type McpServerDeps } from '../../../electron/mcp/server-factory.js';
import { createLogger } from '../../../electron/logger.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';
import { RUN_VIEW_ANSWER_TOOL, RUN_VIEW_STATUS_TOOL, RUN_VIEW_URI } from '../../../shared/run-view.js';

const MODEL_VISIBLE_LIMIT = 1024;
const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } };

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
  _meta?: { ui?: { visibility?: string[]; resourceUri?: string }; 'ui/resourceUri'?: string };
}

/** tools/list needs only the settings; nothing here starts a run. */
function deps(): McpServerDeps {
  const settings = { ...DEFAULT_SETTINGS, limits: { ...DEFAULT_SETTINGS.limits, timeoutSec: 3600, maxTimeoutSec: 3600 } };
  const engine = { subscribe: () => () => {}, snapshot: () => ({ running: [], queued: [] }) };
  return {
    settings: () => settings,
    log: createLogger('test', { SANDBAR_LOG_LEVEL: 'error' }),
    version: '0.0.0',
    transport: 'stdio',
    runView: { runs: new RunViewRuns(engine as never), pending: () => [], decide: () => false },
  } as unknown as McpServerDeps;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

type Peer = { listTools(): Promise<{ tools: unknown[] }>; listResources(): Promise<{ resources: { uri: string; mimeType?: string }[] }>; callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown> };

async function legacyPeer(capabilities: object): Promise<Peer> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(deps());
  await server.connect(serverSide);
  const client = new Client({ name: 'unit', version: '1' }, { capabilities });
  await client.connect(clientSide);
  closers.push(() => client.close(), () => server.close());
  return client as unknown as Peer;
}

async function modernPeer(capabilities: object): Promise<Peer> {
  const [clientSide, serverSide] = ModernMemory.createLinkedPair();
  // The v2 SDK's per-connection entry (what `sandbar stdio` runs), here on an in-memory pair.
  const handle = serveModern(() => createModernMcpServer(deps()), { legacy: 'reject', transport: serverSide as never });
  const client = new ModernClient({ name: 'unit', version: '1' }, { capabilities, versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } });
  await client.connect(clientSide);
  closers.push(() => client.close(), () => handle.close());
  return client as unknown as Peer;
}

const modelVisible = (tools: ListedTool[]) => tools.filter((t) => !t._meta?.ui?.visibility || t._meta.ui.visibility.includes('model'));
const visibleBytes = (tools: ListedTool[]) => Buffer.byteLength(JSON.stringify(modelVisible(tools).map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))));

describe.each([
  ['2025-11-25', legacyPeer],
  [MODERN_PROTOCOL_VERSION, modernPeer],
] as const)('tools/list on %s', (_revision, peer) => {
  it(`keeps what the model sees within ${MODEL_VISIBLE_LIMIT} bytes, with MCP Apps and without`, async () => {
    for (const capabilities of [APPS, {}]) {
      const { tools } = (await (await peer(capabilities)).listTools()) as { tools: ListedTool[] };
      expect(modelVisible(tools).map((t) => t.name)).toEqual(['run_python']);
      expect(visibleBytes(tools)).toBeLessThanOrEqual(MODEL_VISIBLE_LIMIT);
    }
  });

  it('points run_python at the run view, in both spellings of the key', async () => {
    const { tools } = (await (await peer({})).listTools()) as { tools: ListedTool[] };
    const run = tools.find((t) => t.name === 'run_python')!;
    expect(run._meta?.ui?.resourceUri).toBe(RUN_VIEW_URI);
    expect(run._meta?.['ui/resourceUri']).toBe(RUN_VIEW_URI);
  });

  it('lists the app-only tools, marked for the app alone, only to a client that renders MCP Apps', async () => {
    const apps = (await (await peer(APPS)).listTools()) as { tools: ListedTool[] };
    const appOnly = apps.tools.filter((t) => t.name !== 'run_python');
    expect(appOnly.map((t) => t.name).sort()).toEqual([RUN_VIEW_ANSWER_TOOL, RUN_VIEW_STATUS_TOOL].sort());
    for (const tool of appOnly) expect(tool._meta?.ui?.visibility).toEqual(['app']);
    const plain = (await (await peer({})).listTools()) as { tools: ListedTool[] };
    expect(plain.tools.map((t) => t.name)).toEqual(['run_python']);
    // A client that names other UI types only does not render this View.
    const other = (await (await peer({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/x-other'] } } })).listTools()) as { tools: ListedTool[] };
    expect(other.tools.map((t) => t.name)).toEqual(['run_python']);
  });

  it('refuses the app-only tools to a client that does not render MCP Apps, and bad arguments to one that does', async () => {
    const refused = (await (await peer({})).callTool({ name: RUN_VIEW_STATUS_TOOL, arguments: { runId: 'x' } })) as { isError?: boolean; content: { text: string }[] };
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/did not declare MCP Apps \(io\.modelcontextprotocol\/ui\)/);
    const apps = await peer(APPS);
    const bad = (await apps.callTool({ name: RUN_VIEW_ANSWER_TOOL, arguments: { runId: 'r', approvalId: 'a', decision: 'allow-always' } })) as { isError?: boolean; content: { text: string }[] };
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toMatch(/^Invalid arguments for sandbar_run_view_answer: decision: /);
    const unknown = (await apps.callTool({ name: RUN_VIEW_STATUS_TOOL, arguments: { runId: 'nope' } })) as { structuredContent?: { state: string } };
    expect(unknown.structuredContent?.state).toBe('unknown');
    const notMine = (await apps.callTool({ name: RUN_VIEW_ANSWER_TOOL, arguments: { runId: 'nope', approvalId: 'a', decision: 'deny' } })) as { isError?: boolean; content: { text: string }[] };
    expect(notMine.content[0]!.text).toBe('No run nope of this caller.');
  });

  it('lists the run view among the resources, as an MCP App', async () => {
    const { resources } = await (await peer({})).listResources();
    expect(resources.find((r) => r.uri === RUN_VIEW_URI)?.mimeType).toBe('text/html;profile=mcp-app');
  });
});
