// Connects the official SDK client to Sandbar over each transport: in memory, stdio (the real CLI) and
// real HTTP (the endpoint in this process).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Engine } from '../../../electron/sandbox/engine.js';
import { createLogger } from '../../../electron/logger.js';
import { HttpEndpoint } from '../../../electron/mcp/http-endpoint.js';
import { loadOrCreateToken } from '../../../electron/http/token-store.js';
import { createMcpServer, type McpServerDeps } from '../../../electron/mcp/server-factory.js';
import { packageInfo } from '../../../electron/package-info.js';
import { ServerManager } from '../../../electron/proxy/server-manager.js';
import type { ApprovalQueue, PackageProvider, ServerCatalog, SessionAdmission } from '../../../electron/runs/ports.js';
import { RunService } from '../../../electron/runs/run-service.js';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/settings.js';
import { sandbox } from '../helpers.js';

export const quietLog = createLogger('test', { SANDBAR_LOG_LEVEL: 'error' });

/** What a test's run service is made of besides the engine; unset parts are empty (no servers, no sessions). */
export interface RunParts {
  servers?: ServerCatalog;
  sessions?: SessionAdmission;
  packages?: PackageProvider;
  approvals?: ApprovalQueue;
}

/** The run service as core.ts wires it, over a test's engine and parts. */
export function runServiceFor(engine: Engine, settings: () => Settings, parts: RunParts = {}): RunService {
  return new RunService({
    engine,
    servers: parts.servers ?? noServers(engine),
    packages: parts.packages ?? { prepare: () => Promise.reject(new Error('no package index in this test')) },
    ...(parts.sessions ? { sessions: parts.sessions } : {}),
    approvals: parts.approvals ?? { list: () => [] },
    maxCodeBytes: () => settings().maxCodeBytes,
  });
}

export function serverDeps(engine: Engine, transport: 'stdio' | 'http', settings: Partial<Settings> = {}, extra: Partial<McpServerDeps> & RunParts = {}): McpServerDeps {
  const merged = { ...DEFAULT_SETTINGS, image: sandbox.image, ...settings };
  const { servers, sessions, packages, approvals, ...rest } = extra;
  const runs = runServiceFor(engine, () => merged, { ...(servers ? { servers } : {}), ...(sessions ? { sessions } : {}), ...(packages ? { packages } : {}), ...(approvals ? { approvals } : {}) });
  return { runs, settings: () => merged, log: quietLog, version: packageInfo().version, transport, ...rest };
}

/** A server manager with nothing discovered: every server name is unknown. */
export function noServers(engine: Engine): ServerManager {
  return new ServerManager({ startTimeoutMs: 15_000, callTimeoutMs: 60_000, version: 'test', policy: () => 'allow', publish: (e) => engine.publish(e) });
}

export function tempHome(): string {
  return mkdtempSync(path.join(tmpdir(), 'sandbar-home-'));
}

export async function inMemoryClient(engine: Engine, settings: Partial<Settings> = {}): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(serverDeps(engine, 'stdio', settings)).connect(serverSide);
  const client = new Client({ name: 'vitest-memory', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

export async function stdioClient(env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.resolve('dist/electron/cli.js'), 'stdio'],
    env: { ...(process.env as Record<string, string>), SANDBAR_HOME: tempHome(), SANDBAR_IMAGE: sandbox.image, SANDBAR_LOG_LEVEL: 'warn', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'vitest-stdio', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export interface HttpFixture {
  endpoint: HttpEndpoint;
  token: string;
  url: string;
  client(): Promise<Client>;
  close(): Promise<void>;
}

/** `token`: the credential the endpoint accepts, read per request (a test may change it, as a rotation does). */
export async function httpFixture(
  engine: Engine,
  settings: Partial<Settings> = {},
  extra: Partial<McpServerDeps> & RunParts = {},
  options: { token?: () => string } = {},
): Promise<HttpFixture> {
  const home = tempHome();
  const { token } = loadOrCreateToken(home);
  const endpoint = new HttpEndpoint({
    port: 0,
    token: options.token ?? (() => token),
    createServer: () => createMcpServer(serverDeps(engine, 'http', settings, extra)),
    log: quietLog,
  });
  await endpoint.start();
  const clients: Client[] = [];
  return {
    endpoint,
    token,
    url: endpoint.url,
    async client() {
      const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      });
      const client = new Client({ name: 'vitest-http', version: '1.0.0' });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.allSettled(clients.map((c) => c.close()));
      await endpoint.close();
    },
  };
}
