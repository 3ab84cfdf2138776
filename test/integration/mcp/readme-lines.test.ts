// The README's Inspector and mcp-remote lines, read from the README and run as written against a real
// `sandbar serve`: the only changes are the two the README tells the reader to make (the port, 7337 by
// default, and the client token file, ~/.config/sandbar/token by default).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../helpers.js';
import { REPO_ROOT, baseEnv, killAllChildren, run, startServe, trackPid, type ServeProcess } from './real-clients-helpers.js';

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const DEFAULT_URL = 'http://127.0.0.1:7337/mcp';
const DEFAULT_TOKEN_FILE = '~/.config/sandbar/token';

/** The one ```sh block of the README whose text contains `marker`. */
function shBlock(marker: string): string {
  const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => b.includes(marker));
  expect(blocks, `README blocks naming ${marker}`).toHaveLength(1);
  return blocks[0]!.trim();
}

/** The block with the reader's two substitutions, each of which must be there to make. */
function asTheReaderRunsIt(block: string, serve: ServeProcess): string {
  expect(block).toContain(DEFAULT_URL);
  expect(block).toContain(DEFAULT_TOKEN_FILE);
  return block.replaceAll(DEFAULT_URL, serve.url).replaceAll(DEFAULT_TOKEN_FILE, serve.tokenFile);
}

describe.skipIf(!sandbox.available)("the README's lines for the MCP Inspector and mcp-remote", () => {
  let home = '';
  let scratch = '';
  let serve: ServeProcess | undefined;

  beforeAll(async () => {
    home = mkdtempSync(path.join(tmpdir(), 'sandbar-readme-home-'));
    scratch = mkdtempSync(path.join(tmpdir(), 'sandbar-readme-scratch-'));
    serve = await startServe(baseEnv({ SANDBAR_HOME: home, SANDBAR_IMAGE: sandbox.image }));
  });
  afterAll(async () => {
    if (serve) expect(await serve.stop()).toBe(0);
    killAllChildren();
    for (const dir of [home, scratch]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the Inspector line calls run_python with the client token (print(6*7) answers 42)', async () => {
    const block = shBlock('@modelcontextprotocol/inspector');
    // The reader's shell, none of Sandbar's settings, in the checkout (where npx finds the pinned Inspector).
    const result = await run('sh', ['-c', asTheReaderRunsIt(block, serve!)], { env: baseEnv({ HOME: scratch }), timeoutMs: 90_000 });
    expect(result.timedOut).toBe(false);
    expect(result.code, result.stderr).toBe(0);
    const call = CallToolResultSchema.parse(JSON.parse(result.stdout));
    expect(call).toMatchObject({ isError: false, content: [{ type: 'text', text: '42' }] });
  });

  it('the mcp-remote line is a stdio server a client can launch: it lists and calls run_python', async () => {
    const line = asTheReaderRunsIt(shBlock('mcp-remote'), serve!);
    expect(line.split('\n')).toHaveLength(1);
    const transport = new StdioClientTransport({
      command: 'sh',
      args: ['-c', line],
      cwd: REPO_ROOT,
      // mcp-remote keeps its state under HOME; nothing should reach a browser.
      env: baseEnv({ HOME: scratch, MCP_REMOTE_CONFIG_DIR: path.join(scratch, 'mcp-auth'), BROWSER: 'false' }),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'readme-mcp-remote', version: '1.0.0' });
    try {
      await client.connect(transport);
      trackPid(transport.pid);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['run_python']);
      const call = CallToolResultSchema.parse(await client.callTool({ name: 'run_python', arguments: { code: 'print(6*7)' } }));
      expect(call.content).toEqual([{ type: 'text', text: '42' }]);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nmcp-remote stderr:\n${stderr}`, { cause: err });
    } finally {
      await client.close();
    }
    // The token reached the server only through mcp-remote's own expansion: the shell never saw it.
    expect(line).toContain("'Authorization: Bearer ${SANDBAR_TOKEN}'");
  });
});
