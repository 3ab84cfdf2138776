// MCP revision 2026-07-28 beside 2025-11-25, against the real CLI and a real runtime: a v2 SDK client of
// that revision runs run_python through `sandbar serve`'s endpoint, through `sandbar stdio` with its own
// engine, and through `sandbar stdio` joining the running instance; a 1.x SDK client (2025-11-25) keeps
// its session on the same endpoint meanwhile.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Server as ModernServer } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server as LegacyServer } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES_TEXT, CAPABILITIES_URI } from '../../../electron/mcp/capabilities-resource.js';
import { RUN_VIEW_URI } from '../../../shared/run-view.js';
import { callerCredential } from '../../../electron/mcp/caller.js';
import { HttpEndpoint } from '../../../electron/mcp/http-endpoint.js';
import { sandbox } from '../helpers.js';
import { quietLog, tempHome } from './mcp-helpers.js';
import { baseEnv, killAllChildren, SANDBAR_BIN, startServe, type ServeProcess } from './real-clients-helpers.js';

const REVISION = '2026-07-28';
const PRINT = { name: 'run_python', arguments: { code: 'import sys\nprint(6 * 7)\nprint(sys.version_info[0])' } };

function text(result: object): string {
  return (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
}

function modernClient(): ModernClient {
  return new ModernClient({ name: 'revision-2026-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: REVISION } } });
}

function stdioTransport(home: string): { transport: ModernStdioTransport; stderr: () => string } {
  let stderr = '';
  const transport = new ModernStdioTransport({ command: process.execPath, args: [SANDBAR_BIN, 'stdio'], env: baseEnv({ SANDBAR_HOME: home, SANDBAR_LOG_LEVEL: 'info' }), stderr: 'pipe' });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return { transport, stderr: () => stderr };
}

describe.skipIf(!sandbox.available)('MCP 2026-07-28 beside 2025-11-25 (real CLI)', () => {
  let home: string;
  let serve: ServeProcess;
  let token: string;
  const clients: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    home = tempHome();
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ image: sandbox.image, poolSize: 0 }));
    serve = await startServe(baseEnv({ SANDBAR_HOME: home, SANDBAR_LOG_LEVEL: 'warn' }));
    token = readFileSync(serve.tokenFile, 'utf8').trim();
  }, 90_000);
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await serve?.stop();
    killAllChildren();
  });

  it('answers server/discover on the endpoint with the revision it serves', async () => {
    const response = await fetch(serve.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': REVISION, 'mcp-method': 'server/discover' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const body = (await response.json()) as { result: { supportedVersions: string[]; capabilities: Record<string, unknown> } };
    expect(body.result.supportedVersions).toEqual([REVISION]);
    expect(Object.keys(body.result.capabilities).sort()).toEqual(['logging', 'resources', 'tools']);
  });

  it('keeps the guard: no token, no answer, whatever the revision', async () => {
    const response = await fetch(serve.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION } } }),
    });
    expect(response.status).toBe(401);
  });

  it('refuses a 2026-07-28 request that is not JSON, and names the revision it serves to one that claims another', async () => {
    const envelope = (version: string) => ({ 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} });
    const post = (version: string, contentType: string) =>
      fetch(serve.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType, accept: 'application/json, text/event-stream', 'mcp-protocol-version': version, 'mcp-method': 'tools/list' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: envelope(version) } }),
      });
    const wrongType = await post(REVISION, 'text/plain');
    expect(wrongType.status).toBe(415);
    const later = await post('2099-01-01', 'application/json');
    const body = (await later.json()) as { id: number; error: { code: number; message: string; data?: { supported?: string[] } } };
    expect(body.id).toBe(7);
    expect(body.error.message).toMatch(/2099-01-01/);
    expect(JSON.stringify(body.error)).toContain(REVISION);
  });

  it('a 2026-07-28 client runs run_python over HTTP, with progress, while a 2025-11-25 client keeps its session', async () => {
    const legacy = new Client({ name: 'legacy-beside', version: '1.0.0' });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(legacy);
    expect(legacy.getServerVersion()?.name).toBe('sandbar');

    const modern = modernClient();
    await modern.connect(new ModernHttpTransport(new URL(serve.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(modern);
    expect(modern.getNegotiatedProtocolVersion()).toBe(REVISION);
    expect((await modern.listTools()).tools.map((t) => t.name)).toEqual(['run_python']);
    const progress: string[] = [];
    const result = await modern.callTool(PRINT, { timeout: 120_000, onprogress: (p) => progress.push(String(p.message)) });
    expect(result.isError).toBe(false);
    expect(text(result)).toBe('42\n3');
    expect(progress.some((m) => m.startsWith('running'))).toBe(true);
    expect((await modern.listResources()).resources.map((r) => r.uri)).toEqual([CAPABILITIES_URI, RUN_VIEW_URI]);
    const read = await modern.readResource({ uri: CAPABILITIES_URI });
    expect(read.contents).toEqual([{ uri: CAPABILITIES_URI, mimeType: 'text/markdown', text: CAPABILITIES_TEXT }]);
    await expect(modern.readResource({ uri: 'resource://nothing/here' })).rejects.toThrow(/Unknown resource: resource:\/\/nothing\/here/);

    // The 2025-11-25 session was untouched by the stateless traffic beside it.
    const again = await legacy.callTool(PRINT, undefined, { timeout: 120_000 });
    expect(text(again)).toBe('42\n3');
  }, 120_000);

  it("a run's artifact is its caller's on both revisions: each 2026-07-28 request has a server of its own, the record of who made the run is the instance's", async () => {
    const modern = modernClient();
    await modern.connect(new ModernHttpTransport(new URL(serve.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(modern);
    const code = "import os\nos.makedirs('/workspace/out', exist_ok=True)\nopen('/workspace/out/id.txt', 'w').write('mine')";
    const result = await modern.callTool({ name: 'run_python', arguments: { code } }, { timeout: 120_000 });
    const link = ((result as { content: { type: string; uri?: string }[] }).content).find((c) => c.type === 'resource_link');
    expect(link?.uri).toMatch(/^sandbar:\/\/runs\/.+\/artifacts\/out\/id\.txt$/);
    expect((await modern.readResource({ uri: link!.uri! })).contents).toEqual([expect.objectContaining({ text: 'mine' })]);
    // The same client token on 2025-11-25 is the same caller.
    const legacy = new Client({ name: 'legacy-artifact', version: '1.0.0' });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(legacy);
    expect((await legacy.readResource({ uri: link!.uri! })).contents).toEqual([expect.objectContaining({ text: 'mine' })]);
    // Another caller (`sandbar stdio --no-bridge`: its own engine, the same history) gets "unknown". A
    // bridged `sandbar stdio` would be the client token again, the same caller.
    const other = modernClient();
    await other.connect(new ModernStdioTransport({ command: process.execPath, args: [SANDBAR_BIN, 'stdio', '--no-bridge'], env: baseEnv({ SANDBAR_HOME: home, SANDBAR_LOG_LEVEL: 'warn' }), stderr: 'pipe' }));
    clients.push(other);
    await expect(other.readResource({ uri: link!.uri! })).rejects.toThrow(/Unknown artifact/);
  }, 120_000);

  it('a 2026-07-28 client runs run_python through `sandbar stdio` joining the running instance', async () => {
    const client = modernClient();
    const { transport, stderr } = stdioTransport(home);
    await client.connect(transport);
    clients.push(client);
    expect(client.getNegotiatedProtocolVersion()).toBe(REVISION);
    const result = await client.callTool(PRINT, { timeout: 120_000 });
    expect(text(result)).toBe('42\n3');
    expect(stderr()).toContain('joining the running Sandbar');
  }, 120_000);

  it('a 2026-07-28 client runs run_python through `sandbar stdio` with its own engine; a 2025-11-25 one still can', async () => {
    const own = tempHome();
    writeFileSync(path.join(own, 'settings.json'), JSON.stringify({ image: sandbox.image, poolSize: 0 }));
    const client = modernClient();
    const { transport, stderr } = stdioTransport(own);
    await client.connect(transport);
    clients.push(client);
    expect(client.getNegotiatedProtocolVersion()).toBe(REVISION);
    const result = await client.callTool(PRINT, { timeout: 120_000 });
    expect(text(result)).toBe('42\n3');
    expect(stderr()).not.toContain('joining the running Sandbar');

    const legacy = new ModernClient({ name: 'legacy-stdio', version: '1.0.0' });
    const second = stdioTransport(own);
    await legacy.connect(second.transport);
    clients.push(legacy);
    expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(text(await legacy.callTool(PRINT, { timeout: 120_000 }))).toBe('42\n3');
  }, 120_000);
});

describe('the caller seam: one identity on both revisions', () => {
  it('hands the 2025-11-25 and the 2026-07-28 handler the same credential for the same client token, and a new one after rotation', async () => {
    let token = 'a'.repeat(64);
    const seen: { era: string; credential: string }[] = [];
    const endpoint = new HttpEndpoint({
      port: 0,
      token: () => token,
      log: quietLog,
      createServer: () => {
        const server = new LegacyServer({ name: 'probe', version: '1' }, { capabilities: { tools: {} } });
        server.setRequestHandler(CallToolRequestSchema, (_request, extra) => {
          seen.push({ era: 'legacy', credential: callerCredential(extra.authInfo, undefined) });
          return { content: [] };
        });
        return server;
      },
      createModernServer: () => {
        const server = new ModernServer({ name: 'probe', version: '1' }, { capabilities: { tools: {} }, supportedProtocolVersions: [REVISION] });
        server.setRequestHandler('tools/call', (_request, ctx) => {
          seen.push({ era: 'modern', credential: callerCredential(ctx.http?.authInfo, undefined) });
          return { content: [] };
        });
        return server;
      },
    });
    await endpoint.start();
    try {
      const call = async () => {
        const legacy = new Client({ name: 'l', version: '1' });
        await legacy.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
        await legacy.callTool({ name: 'x', arguments: {} });
        await legacy.close();
        const modern = modernClient();
        await modern.connect(new ModernHttpTransport(new URL(endpoint.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
        await modern.callTool({ name: 'x', arguments: {} });
        await modern.close();
      };
      await call();
      token = 'b'.repeat(64);
      await call();
    } finally {
      await endpoint.close();
    }
    expect(seen.map((s) => s.era)).toEqual(['legacy', 'modern', 'legacy', 'modern']);
    expect(seen[0]!.credential).toMatch(/^client-token:[0-9a-f]{32}$/);
    expect(seen[1]!.credential).toBe(seen[0]!.credential);
    expect(seen[0]!.credential).not.toContain('a'.repeat(32));
    expect(seen[2]!.credential).toBe(seen[3]!.credential);
    expect(seen[2]!.credential).not.toBe(seen[0]!.credential);
  });
});
