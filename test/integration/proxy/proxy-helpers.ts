// Real MCP servers from npm (and the stub for what they cannot do), behind a real engine and run_python.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../../electron/mcp/server-factory.js';
import { ServerManager, type ServerPolicy } from '../../../electron/proxy/server-manager.js';
import type { Engine } from '../../../electron/sandbox/engine.js';
import type { EngineEvent } from '../../../shared/execution.js';
import type { ServerConfig } from '../../../shared/proxy.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';
import { sandbox } from '../helpers.js';
import { quietLog, runServiceFor } from '../mcp/mcp-helpers.js';

export const EVERYTHING = path.resolve('node_modules/.bin/mcp-server-everything');
export const FILESYSTEM = path.resolve('node_modules/.bin/mcp-server-filesystem');
export const STUB = path.resolve('test/fixtures/stub-mcp-server.mjs');

export function stdioServer(name: string, command: string, args: string[] = [], extra: Partial<ServerConfig> = {}): ServerConfig {
  return { name, source: 'test', transport: 'stdio', command, args, env: {}, description: `${name} server`, ...extra };
}

export interface ProxyFixture {
  manager: ServerManager;
  client: Client;
  events: EngineEvent[];
  run(code: string, servers?: string[], timeout?: number): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function proxyFixture(engine: Engine, servers: ServerConfig[], policies: Record<string, ServerPolicy> = {}): Promise<ProxyFixture> {
  const events: EngineEvent[] = [];
  const off = engine.subscribe((e) => events.push(e));
  const manager = new ServerManager({
    startTimeoutMs: 8000,
    callTimeoutMs: 60_000,
    version: 'test',
    policy: (name) => policies[name] ?? 'allow',
    publish: (e) => engine.publish(e),
  });
  manager.setDiscovery({ servers, problems: [], skipped: [] });
  const settings = { ...DEFAULT_SETTINGS, image: sandbox.image };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ runs: runServiceFor(engine, () => settings, { servers: manager }), settings: () => settings, log: quietLog, version: 'test', transport: 'stdio' }).connect(serverSide);
  const client = new SdkClient({ name: 'vitest-proxy', version: '1' });
  await client.connect(clientSide);
  return {
    manager,
    client,
    events,
    run: (code, names = [], timeout = 60) =>
      client.callTool({ name: 'run_python', arguments: { code, servers: names, timeout } }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>,
    async close() {
      off();
      await client.close();
      await manager.dispose();
    },
  };
}

export const text = (r: CallToolResult): string => (r.content[0] as { text: string }).text;
