// Sandbar as third-party MCP clients see it: the MCP Inspector CLI (stdio and Streamable HTTP) and
// mcp-remote (a stdio bridge to the HTTP endpoint) against the built bin, real containers, no mocks.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ListResourcesResultSchema, ListToolsResultSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../helpers.js';
import {
  REPO_ROOT,
  SANDBAR_BIN,
  baseEnv,
  inspector,
  inspectorJson,
  killAllChildren,
  mcpRemoteArgs,
  mcpRemoteEnv,
  run,
  startServe,
  trackPid,
  type ServeProcess,
} from './real-clients-helpers.js';

const CALL_TIMEOUT = 60_000;
const CAPABILITIES_URI = 'resource://mcp-server-code-execution-mode/capabilities';
const RUN_VIEW_URI = 'ui://sandbar/run.html';
const ANSWER = { content: [{ type: 'text', text: '42' }], structuredContent: { stdout: ['42'], exitReason: 'success' }, isError: false };
const EXIT_3 = { content: [{ type: 'text', text: 'status: error\nSandbox error: Sandbox exited with code 3' }], isError: true };
const UNAUTHORIZED = 'Unauthorized: send \\"Authorization: Bearer <client token>\\"';

function runPython(list: ListToolsResult) {
  const tools = list.tools.filter((t) => t.name === 'run_python');
  expect(tools).toHaveLength(1);
  return tools[0]!;
}

describe.skipIf(!sandbox.available)('real third-party MCP clients against the built sandbar', () => {
  let home = '';
  let scratch = '';

  beforeAll(() => {
    home = mkdtempSync(path.join(tmpdir(), 'sandbar-real-clients-home-'));
    scratch = mkdtempSync(path.join(tmpdir(), 'sandbar-real-clients-scratch-'));
  });

  afterAll(() => {
    killAllChildren();
    for (const dir of [home, scratch]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('MCP Inspector CLI over stdio', () => {
    // Only `-e` carries Sandbar's settings: the inspector's own environment has none.
    const launch = (...settings: string[]) => [
      '-e', `SANDBAR_HOME=${home}`,
      '-e', `SANDBAR_IMAGE=${sandbox.image}`,
      ...settings.flatMap((s) => ['-e', s]),
      process.execPath, SANDBAR_BIN, 'stdio',
    ];

    it('tools/list shows run_python with code required and the discovery helpers; -e settings reach the server', async () => {
      const result = await inspector([...launch('MCP_BRIDGE_MAX_TIMEOUT=77'), '--method', 'tools/list'], baseEnv());
      const list = ListToolsResultSchema.parse(inspectorJson(result));
      expect(list.tools.map((t) => t.name)).toEqual(['run_python']);
      const tool = runPython(list);
      expect(tool.description).toMatch(/^Execute Python code inside a rootless container sandbox\./);
      expect(tool.inputSchema.required).toEqual(['code']);
      const props = tool.inputSchema.properties as Record<string, { type?: string; description?: string; maximum?: number }>;
      expect(props.code?.type).toBe('string');
      expect(props.code?.description).toContain('runtime.discovered_servers()');
      // The default is 120: 77 can only have come from `-e MCP_BRIDGE_MAX_TIMEOUT=77`.
      expect(props.timeout?.maximum).toBe(77);
    });

    it('tools/call run_python print(6*7) answers 42', async () => {
      const result = await inspector([...launch(), '--method', 'tools/call', '--tool-name', 'run_python', '--tool-arg', 'code=print(6*7)'], baseEnv());
      const call = CallToolResultSchema.parse(inspectorJson(result));
      expect(call).toMatchObject(ANSWER);
      expect(call.content).toHaveLength(1);
    });

    it('tools/call of a Matplotlib plot shows a type "image" block, and a later process (another caller) cannot read its artifacts', async () => {
      const code = "import os; os.makedirs('/workspace/out', exist_ok=True); open('/workspace/out/n.txt', 'w').write('1'); " +
        "import matplotlib.pyplot as plt; plt.plot([1,2]); plt.title('Sales'); plt.show()";
      const result = await inspector([...launch(), '--method', 'tools/call', '--tool-name', 'run_python', '--tool-arg', `code=${code}`], baseEnv());
      const call = CallToolResultSchema.parse(inspectorJson(result));
      expect(call.isError).toBe(false);
      expect(call.structuredContent).toBeUndefined();
      expect(call.content.map((c) => c.type)).toEqual(['text', 'text', 'image', 'resource_link']);
      const image = call.content[2] as { type: 'image'; mimeType: string; data: string };
      expect(image.mimeType).toBe('image/png');
      expect(Buffer.from(image.data, 'base64').subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect((call.content[1] as { text: string }).text).toMatch(/^figure 1: 'Sales', \d+×\d+\nfile out\/n\.txt/);
      // The link names the run. A new server process over the same home is another stdio connection, so
      // another caller: it gets the error of a run that does not exist (artifacts belong to their caller).
      const link = call.content[3] as { uri: string };
      const figureUri = link.uri.replace(/out\/n\.txt$/, 'figure-1.png');
      const read = await inspector([...launch(), '--method', 'resources/read', '--uri', figureUri], baseEnv());
      expect(read.code).not.toBe(0);
      expect(read.stdout + read.stderr).toContain('Unknown artifact');
      expect(read.stdout + read.stderr).not.toContain(image.data.slice(0, 64));
    });

    it('resources/list shows exactly the capabilities resource and the run view', async () => {
      const result = await inspector([...launch(), '--method', 'resources/list'], baseEnv());
      const list = ListResourcesResultSchema.parse(inspectorJson(result));
      expect(list.resources.map((r) => r.uri)).toEqual([CAPABILITIES_URI, RUN_VIEW_URI]);
    });
  });

  describe('MCP Inspector CLI over Streamable HTTP (sandbar serve --port 0)', () => {
    let serve: ServeProcess | undefined;
    let token = '';

    beforeAll(async () => {
      serve = await startServe(baseEnv({ SANDBAR_HOME: home, SANDBAR_IMAGE: sandbox.image }));
      token = readFileSync(serve.tokenFile, 'utf8').trim();
      expect(token).toMatch(/^[0-9a-f]{64}$/);
    });

    afterAll(async () => {
      if (!serve) return;
      const code = await serve.stop();
      expect(code, `sandbar serve stderr:\n${serve.stderr()}`).toBe(0);
    });

    it('is refused by the server when it sends no token, or a wrong one', async () => {
      const bare = await inspector([serve!.url, '--transport', 'http', '--method', 'tools/list'], baseEnv());
      expect(bare.timedOut).toBe(false);
      expect(bare.code).toBe(1);
      expect(bare.stdout).not.toContain('run_python');
      expect(bare.stderr).toContain(UNAUTHORIZED);
      const wrong = await inspector([serve!.url, '--transport', 'http', '--header', `Authorization: Bearer ${'f'.repeat(64)}`, '--method', 'tools/list'], baseEnv());
      expect(wrong.code).toBe(1);
      expect(wrong.stdout).not.toContain('run_python');
      expect(wrong.stderr).toContain(UNAUTHORIZED);
    });

    it('lists and calls run_python with --transport http and the bearer header (--header)', async () => {
      const http = [serve!.url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`];

      const list = ListToolsResultSchema.parse(inspectorJson(await inspector([...http, '--method', 'tools/list'], baseEnv())));
      expect(runPython(list).inputSchema.required).toEqual(['code']);

      const call = CallToolResultSchema.parse(
        inspectorJson(await inspector([...http, '--method', 'tools/call', '--tool-name', 'run_python', '--tool-arg', 'code=print(6*7)'], baseEnv())),
      );
      expect(call).toMatchObject(ANSWER);

      const plot = CallToolResultSchema.parse(
        inspectorJson(
          await inspector(
            [...http, '--method', 'tools/call', '--tool-name', 'run_python', '--tool-arg', "code=import matplotlib.pyplot as plt; plt.plot([1,2]); plt.title('Sales'); plt.show()"],
            baseEnv(),
          ),
        ),
      );
      expect(plot.content.map((c) => c.type)).toEqual(['text', 'text', 'image']);
      expect(plot.content[2]).toMatchObject({ type: 'image', mimeType: 'image/png' });
      expect(plot.structuredContent).toBeUndefined();
    });

    it('lists and calls run_python through mcp-remote launched from an inspector --config file', async () => {
      // How desktop clients are configured: a stdio command (mcp-remote) with the header. The 1.x
      // Inspector hands a config's args to its own CLI parser, which takes `--header` for itself, so the
      // mcp-remote command line sits in a script the config launches; the token still only in env.
      const config = path.join(scratch, 'inspector-config.json');
      const bridgeHome = path.join(scratch, 'inspector-bridge');
      mkdirSync(bridgeHome);
      const env = mcpRemoteEnv(bridgeHome, token);
      const script = path.join(scratch, 'mcp-remote.sh');
      const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
      writeFileSync(script, `exec ${[process.execPath, ...mcpRemoteArgs(serve!.url)].map(quote).join(' ')}\n`);
      writeFileSync(
        config,
        JSON.stringify({
          mcpServers: {
            sandbar: {
              command: '/bin/sh',
              args: [script],
              env: { SANDBAR_TEST_TOKEN: token, MCP_REMOTE_CONFIG_DIR: env.MCP_REMOTE_CONFIG_DIR },
            },
          },
        }),
        { mode: 0o600 },
      );
      const viaConfig = ['--config', config, '--server', 'sandbar'];
      // The token reaches mcp-remote only through the config file's env.
      const { SANDBAR_TEST_TOKEN: _token, ...inspectorEnv } = env;

      const list = ListToolsResultSchema.parse(inspectorJson(await inspector([...viaConfig, '--method', 'tools/list'], inspectorEnv)));
      expect(runPython(list).inputSchema.required).toEqual(['code']);
      const call = CallToolResultSchema.parse(
        inspectorJson(await inspector([...viaConfig, '--method', 'tools/call', '--tool-name', 'run_python', '--tool-arg', 'code=print(6*7)'], inspectorEnv)),
      );
      expect(call).toMatchObject(ANSWER);
    });
  });

  describe('mcp-remote bridging the official SDK client to sandbar serve', () => {
    let serve: ServeProcess | undefined;
    let token = '';
    const clients: Client[] = [];

    beforeAll(async () => {
      serve = await startServe(baseEnv({ SANDBAR_HOME: home, SANDBAR_IMAGE: sandbox.image }));
      token = readFileSync(serve.tokenFile, 'utf8').trim();
    });

    afterAll(async () => {
      await Promise.allSettled(clients.splice(0).map((c) => c.close()));
      if (!serve) return;
      const code = await serve.stop();
      expect(code, `sandbar serve stderr:\n${serve.stderr()}`).toBe(0);
    });

    it('lists tools and runs code, success and failure, through the bridge', async () => {
      const bridgeHome = path.join(scratch, 'sdk-bridge');
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: mcpRemoteArgs(serve!.url),
        env: mcpRemoteEnv(bridgeHome, token),
        cwd: REPO_ROOT,
        stderr: 'pipe',
      });
      let bridgeLog = '';
      transport.stderr?.on('data', (d: Buffer) => (bridgeLog += d.toString('utf8')));
      const client = new Client({ name: 'sandbar-real-clients-test', version: '1.0.0' });
      clients.push(client);

      await client.connect(transport, { timeout: CALL_TIMEOUT });
      trackPid(transport.pid);
      expect(client.getServerVersion()?.name, bridgeLog).toBe('sandbar');

      const list = await client.listTools(undefined, { timeout: CALL_TIMEOUT });
      expect(list.tools.map((t) => t.name)).toEqual(['run_python']);
      expect(runPython(list).inputSchema.required).toEqual(['code']);

      const ok = await client.callTool({ name: 'run_python', arguments: { code: 'print(6*7)' } }, undefined, { timeout: CALL_TIMEOUT });
      expect(ok).toMatchObject(ANSWER);

      const failed = await client.callTool({ name: 'run_python', arguments: { code: 'import sys; sys.exit(3)' } }, undefined, { timeout: CALL_TIMEOUT });
      expect(failed).toMatchObject(EXIT_3);
      expect(failed.content).toHaveLength(1);

      // It used the scratch config dir, and never went looking for a sign-in.
      expect(statSync(path.join(bridgeHome, 'mcp-auth')).isDirectory()).toBe(true);
      expect(bridgeLog).not.toMatch(/OAuth callback server running|Dynamic Client Registration|Authentication required/);
      await client.close();
    });

    it('with a wrong token cannot list tools, exits non-zero, and leaves the token file alone', async () => {
      const before = { text: readFileSync(serve!.tokenFile, 'utf8'), mtime: statSync(serve!.tokenFile).mtimeMs };
      const wrong = token.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      expect(wrong).not.toBe(token);

      // A scripted stdio client that follows the protocol: initialize, and only once answered, list tools.
      const send = (m: object) => `${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`;
      const initialize = send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'wrong-token', version: '1' } } });
      // --device-code: mcp-remote answers the server's 401 with OAuth; this keeps that flow from binding a
      // callback port or opening a browser. Sandbar offers no OAuth, so the attempt must end in failure.
      const result = await run(process.execPath, mcpRemoteArgs(serve!.url, ['--device-code']), {
        env: mcpRemoteEnv(path.join(scratch, 'wrong-bridge'), wrong),
        timeoutMs: CALL_TIMEOUT,
        input: initialize,
        // EOF would make it shut down on its own, exit 0, and prove nothing.
        keepStdinOpen: true,
        onLine: (line, write) => {
          if (/^\{.*"id":1[,}]/.test(line)) write(send({ method: 'notifications/initialized' }) + send({ id: 2, method: 'tools/list' }));
        },
      });
      expect(result.timedOut, result.stderr).toBe(false);
      expect(result.code, result.stderr).not.toBe(0);
      expect(result.code).not.toBeNull();
      expect(result.stdout).not.toContain('run_python');
      expect(result.stdout).not.toContain('"result"');
      expect(result.stderr).not.toContain('Connected to remote server');

      expect(readFileSync(serve!.tokenFile, 'utf8')).toBe(before.text);
      expect(statSync(serve!.tokenFile).mtimeMs).toBe(before.mtime);

      // The server is unharmed: the right token still works through a fresh bridge.
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: mcpRemoteArgs(serve!.url),
        env: mcpRemoteEnv(path.join(scratch, 'after-bridge'), token),
        cwd: REPO_ROOT,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'sandbar-real-clients-test', version: '1.0.0' });
      clients.push(client);
      await client.connect(transport, { timeout: CALL_TIMEOUT });
      trackPid(transport.pid);
      expect((await client.listTools(undefined, { timeout: CALL_TIMEOUT })).tools.map((t) => t.name)).toEqual(['run_python']);
      await client.close();
    });
  });
});
