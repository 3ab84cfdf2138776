// The MCP surface, checked exactly [compat], over each transport with the official SDK client.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { decode } from '@toon-format/toon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES_URI } from '../../../electron/mcp/capabilities-resource.js';
import { RUN_VIEW_URI } from '../../../shared/run-view.js';
import { HELPER_SUMMARY } from '../../../electron/mcp/run-python-tool.js';
import { packageInfo } from '../../../electron/package-info.js';
import type { Engine } from '../../../electron/sandbox/engine.js';
import { sandbox, startEngine } from '../helpers.js';
import { httpFixture, inMemoryClient, stdioClient, type HttpFixture } from './mcp-helpers.js';

type Text = { type: 'text'; text: string };
const textOf = (r: CallToolResult) => (r.content[0] as Text).text;
const call = (client: Client, args: Record<string, unknown>) =>
  client.callTool({ name: 'run_python', arguments: args }) as Promise<CallToolResult>;

describe.skipIf(!sandbox.available)('MCP protocol', () => {
  let engine: Engine;
  let http: HttpFixture;
  const clients: Record<string, Client> = {};

  beforeAll(async () => {
    engine = await startEngine({ poolSize: 2 });
    http = await httpFixture(engine);
    [clients.memory, clients.stdio, clients.http] = await Promise.all([inMemoryClient(engine), stdioClient(), http.client()]);
  });

  afterAll(async () => {
    await Promise.allSettled(Object.values(clients).map((c) => c.close()));
    await http?.close();
    await engine?.dispose();
  });

  describe.each(['memory', 'stdio', 'http'])('over %s', (transport) => {
    const client = () => clients[transport]!;

    it('identifies as sandbar with the product version and tools, resources, logging', () => {
      expect(client().getServerVersion()).toEqual({ name: 'sandbar', version: packageInfo().version });
      expect(client().getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, logging: {} });
    });

    it('lists exactly run_python with the reference schema and the helper summary', async () => {
      const { tools } = await client().listTools();
      expect(tools).toHaveLength(1);
      const tool = tools[0]!;
      expect(tool.name).toBe('run_python');
      expect(tool.description).toBe("Execute Python code inside a rootless container sandbox. Use the optional 'servers' array to load MCP servers for this execution.");
      expect(tool.inputSchema).toEqual({
        type: 'object',
        properties: {
          code: {
            type: 'string',
            description: `Python source code to execute. Call runtime.capability_summary() inside the sandbox for this digest. ${HELPER_SUMMARY}`,
          },
          servers: { type: 'array', items: { type: 'string' }, description: 'Optional list of MCP servers to make available as mcp_<name> proxies' },
          packages: { description: 'pip requirements pinned with ==' },
          session: { description: "'new' opens; id continues; id@n after call n" },
          timeout: { type: 'integer', minimum: 1, maximum: 120, default: 30, description: 'Execution timeout in seconds' },
        },
        required: ['code'],
      });
      expect(JSON.stringify(tool.inputSchema)).toContain("runtime.search_tool_docs('query')");
      expect(JSON.stringify(tool.inputSchema)).not.toContain('save_tool');
    });

    it('lists and reads the capabilities resource (beside the run view); an unknown URI is -32602', async () => {
      const { resources } = await client().listResources();
      expect(resources.map((r) => r.uri)).toEqual([CAPABILITIES_URI, RUN_VIEW_URI]);
      expect(resources[0]).toMatchObject({ uri: CAPABILITIES_URI, name: 'code-execution-capabilities', mimeType: 'text/markdown' });
      const read = await client().readResource({ uri: CAPABILITIES_URI });
      const content = read.contents[0] as { mimeType: string; text: string };
      expect(content.mimeType).toBe('text/markdown');
      expect(Buffer.byteLength(content.text)).toBe(resources[0]!.size);
      expect(content.text).toContain('Code Execution MCP Capabilities');
      expect(content.text).toContain(HELPER_SUMMARY);
      expect(content.text).toContain('cwd');
      const err = await client().readResource({ uri: 'resource://nope' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(-32602);
      expect((err as McpError).message).toContain('Unknown resource: resource://nope');
    });

    it('print(1): text 1, structured stdout only (plus exitReason and durationMs)', async () => {
      const r = await call(client(), { code: 'print(1)' });
      expect(r.isError).toBe(false);
      expect(r.content).toEqual([{ type: 'text', text: '1' }]);
      const { durationMs, ...rest } = r.structuredContent as Record<string, unknown>;
      expect(rest).toEqual({ stdout: ['1'], exitReason: 'success' });
      expect(typeof durationMs).toBe('number');
    });

    it('pass: Success (no output)', async () => {
      const r = await call(client(), { code: 'pass' });
      expect(r.isError).toBe(false);
      expect(textOf(r)).toBe('Success (no output)');
      expect(r.structuredContent).toMatchObject({ summary: 'Success (no output)' });
      expect(r.structuredContent).not.toHaveProperty('status');
    });

    it('an exception: status error, partial stdout, the traceback on stderr', async () => {
      const r = await call(client(), { code: 'print("partial")\ndef f():\n    raise ValueError("boom")\nf()' });
      expect(r.isError).toBe(true);
      const text = textOf(r);
      expect(text.startsWith('status: error\npartial\nstderr:\nTraceback (most recent call last):\n  File "<sandbox>", line 4')).toBe(true);
      expect(text.endsWith('ValueError: boom')).toBe(true);
      expect(text).not.toContain('sandbar-agent');
      const s = r.structuredContent as Record<string, unknown>;
      expect(s).toMatchObject({
        status: 'error',
        stdout: ['partial'],
        error: 'Sandbox exited with code 1',
        summary: 'Sandbox error: Sandbox exited with code 1',
        exitReason: 'error',
      });
      expect((s.stderr as string[]).at(-1)).toBe('ValueError: boom');
    });

    it('sys.exit(3): status error, Sandbox exited with code 3, no exitCode', async () => {
      const r = await call(client(), { code: 'import sys\nsys.exit(3)' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe('status: error\nSandbox error: Sandbox exited with code 3');
      const { durationMs: _d, ...s } = r.structuredContent as Record<string, unknown>;
      expect(s).toEqual({ status: 'error', error: 'Sandbox exited with code 3', summary: 'Sandbox error: Sandbox exited with code 3', exitReason: 'error' });
    });

    it('a timeout keeps the partial output', async () => {
      const r = await call(client(), { code: 'print("start", flush=True)\nimport time\ntime.sleep(30)', timeout: 2 });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe('status: timeout\nstart\nerror: Execution timed out after 2s');
      const { durationMs: _d, ...s } = r.structuredContent as Record<string, unknown>;
      expect(s).toEqual({
        status: 'timeout',
        stdout: ['start'],
        timeoutSeconds: 2,
        error: 'Execution timed out after 2s',
        summary: 'Timeout: execution exceeded 2s',
        exitReason: 'timeout',
      });
    });

    it('an unknown server is refused before anything runs', async () => {
      const r = await call(client(), { code: 'print(1)', servers: ['nope'] });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe('status: error\nSandbox error: Unknown MCP server: nope');
      expect(r.structuredContent).toEqual({ status: 'error', servers: ['nope'], error: 'Unknown MCP server: nope', summary: 'Sandbox error: Unknown MCP server: nope' });
    });

    it.each([
      [{}, "'code' is a required property"],
      [{ code: 123 }, "123 is not of type 'string'"],
      [{ code: 'print(1)', timeout: 0 }, '0 is less than the minimum of 1'],
      [{ code: 'print(1)', timeout: 500 }, '500 is greater than the maximum of 120'],
      [{ code: 'print(1)', timeout: 2.5 }, "2.5 is not of type 'integer'"],
      [{ code: 'print(1)', servers: 'x' }, "'x' is not of type 'array'"],
      [{ code: 'print(1)', servers: [1] }, "1 is not of type 'string'"],
    ])('refuses %j with the reference message', async (args, message) => {
      const r = await call(client(), args);
      expect(r.isError).toBe(true);
      expect(r.content).toEqual([{ type: 'text', text: `Input validation error: ${message}` }]);
      expect(r.structuredContent).toBeUndefined();
    });

    it('refuses blank code as validation_error', async () => {
      const r = await call(client(), { code: '   \n' });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ status: 'validation_error', error: "Missing 'code' argument" });
    });
  });

  it('renders the full payload as TOON in toon mode', async () => {
    const toonClient = await inMemoryClient(engine, { outputMode: 'toon' });
    try {
      const r = await call(toonClient, { code: 'print(1)\nprint("a: b")' });
      const text = textOf(r);
      expect(text.startsWith('```toon\n')).toBe(true);
      expect(text.endsWith('\n```')).toBe(true);
      const decoded = decode(text.slice('```toon\n'.length, -'\n```'.length)) as Record<string, unknown>;
      expect(decoded).toEqual(r.structuredContent);
      expect(decoded).toMatchObject({ status: 'success', summary: 'Success', exitCode: 0, stdout: ['1', 'a: b'], exitReason: 'success' });
    } finally {
      await toonClient.close();
    }
  });
});
