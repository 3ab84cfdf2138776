// The capabilities resource lists the user's folders (name, mount path, writable) on both MCP revisions,
// never the host path, and its listed size matches what resources/read returns. Real SDK clients over
// in-memory transports; nothing here starts a run.
import { Client as ModernClient, InMemoryTransport as ModernMemory } from '@modelcontextprotocol/client';
import { serveStdio as serveModern } from '@modelcontextprotocol/server/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CAPABILITIES_URI } from '../../../electron/mcp/capabilities-resource.js';
import { createModernMcpServer, MODERN_PROTOCOL_VERSION } from '../../../electron/mcp/modern-server.js';
import { createMcpServer, type McpServerDeps } from '../../../electron/mcp/server-factory.js';
import { createLogger } from '../../../electron/logger.js';
import type { FolderInfo } from '../../../shared/folders.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';

let folders: FolderInfo[] = [];
const deps = () =>
  ({ settings: () => DEFAULT_SETTINGS, log: createLogger('test', { SANDBAR_LOG_LEVEL: 'error' }), version: '0.0.0', transport: 'stdio', folders: () => folders }) as unknown as McpServerDeps;

type Peer = {
  listResources(): Promise<{ resources: { uri: string; size?: number }[] }>;
  readResource(p: { uri: string }): Promise<{ contents: { text?: string }[] }>;
};
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function legacyPeer(): Promise<Peer> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(deps());
  await server.connect(serverSide);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(clientSide);
  closers.push(() => client.close(), () => server.close());
  return client as unknown as Peer;
}

async function modernPeer(): Promise<Peer> {
  const [clientSide, serverSide] = ModernMemory.createLinkedPair();
  const handle = serveModern(() => createModernMcpServer(deps()), { legacy: 'reject', transport: serverSide as never });
  const client = new ModernClient({ name: 'unit', version: '1' }, { versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } });
  await client.connect(clientSide);
  closers.push(() => client.close(), () => handle.close());
  return client as unknown as Peer;
}

describe.each([
  ['2025-11-25', legacyPeer],
  [MODERN_PROTOCOL_VERSION, modernPeer],
] as const)('the capabilities resource on %s', (_revision, peer) => {
  it('lists the folders with their mount paths and whether they are writable, and its size is exact', async () => {
    folders = [
      { name: 'data', mountPath: '/mnt/data', writable: false },
      { name: 'out', mountPath: '/mnt/out', writable: true },
    ];
    const client = await peer();
    const text = (await client.readResource({ uri: CAPABILITIES_URI })).contents[0]!.text!;
    expect(text).toContain("## The user's folders");
    expect(text).toContain('- `data` at `/mnt/data`: read-only');
    expect(text).toContain('- `out` at `/mnt/out`: writable');
    const listed = (await client.listResources()).resources.find((r) => r.uri === CAPABILITIES_URI)!;
    expect(listed.size).toBe(Buffer.byteLength(text, 'utf8'));

    folders = [];
    const none = (await client.readResource({ uri: CAPABILITIES_URI })).contents[0]!.text!;
    expect(none).not.toContain("user's folders");
  });
});
