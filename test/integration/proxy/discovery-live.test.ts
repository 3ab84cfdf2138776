// Discovery through a real surface: `sandbar stdio` picks up config files (including one added while it
// runs), one bad file hides nothing, disabled and denied servers stay invisible.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, waitFor } from '../helpers.js';
import { stdioClient } from '../mcp/mcp-helpers.js';
import { EVERYTHING, STUB } from './proxy-helpers.js';

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe.skipIf(!sandbox.available)('live discovery through sandbar stdio', () => {
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-user-'));
  const mcps = path.join(home, 'MCPs');
  const sandbarHome = path.join(home, 'sandbar-home');
  const extra = path.join(home, 'extra-servers.json');
  let client: Client;

  beforeAll(async () => {
    mkdirSync(mcps);
    mkdirSync(sandbarHome);
    writeFileSync(path.join(mcps, '10-good.json'), JSON.stringify({
      description: 'from the good file',
      mcpServers: {
        stub: { command: process.execPath, args: [STUB] },
        off: { command: process.execPath, args: [STUB], disabled: true },
        secret: { command: process.execPath, args: [STUB] },
        self: { command: 'npx', args: ['sandbar', 'stdio'] },
      },
    }));
    writeFileSync(path.join(mcps, '20-broken.json'), '{"mcpServers": {');
    writeFileSync(extra, JSON.stringify({ servers: { everything: { command: EVERYTHING, args: ['stdio'], description: 'VS Code style' } } }));
    // The stub's tools declare no hints, so they would be asked about; this test is about discovery.
    writeFileSync(path.join(sandbarHome, 'settings.json'), JSON.stringify({ serverPolicies: { secret: 'deny' }, toolPolicies: { late: 'allow' } }));
    client = await stdioClient({ HOME: home, SANDBAR_HOME: sandbarHome, MCP_SERVERS_CONFIG: extra });
  });
  afterAll(async () => {
    await client?.close();
  });

  const run = (code: string, servers: string[] = []) =>
    client.callTool({ name: 'run_python', arguments: { code, servers } }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>;

  it('sees the good file and MCP_SERVERS_CONFIG despite a broken file; hides disabled, denied and self-referencing servers', async () => {
    const r = await run('print(runtime.discovered_servers(detailed=True))');
    expect(text(r)).toBe("({'name': 'stub', 'description': 'from the good file'}, {'name': 'everything', 'description': 'VS Code style'})");
    const denied = await run('print(1)', ['secret']);
    expect(text(denied)).toBe("status: error\nSandbox error: MCP server 'secret' is denied in Sandbar; allow it in the panel's Servers view to use it");
    const echoed = await run('print((await mcp_everything.echo(message="vs code"))["content"][0]["text"])', ['everything']);
    expect(text(echoed)).toBe('Echo: vs code');
  });

  it('picks up a server file added while running, without a restart', async () => {
    expect(text(await run('print(1)', ['late']))).toBe('status: error\nSandbox error: Unknown MCP server: late');
    writeFileSync(path.join(mcps, '30-late.json'), JSON.stringify({ mcpServers: { late: { command: process.execPath, args: [STUB] } } }));
    let last = '';
    const found = await waitFor(async () => {
      last = text(await run('print((await mcp_late.cwd())["content"][0]["text"] != "")', ['late']));
      return last === 'True';
    }, 15_000, 500);
    expect(found, last).toBe(true);
  });
});

describe.skipIf(!sandbox.available)('sandbar run --servers', () => {
  it('loads a configured server for a one-off run', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-cli-user-'));
    const config = path.join(home, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: EVERYTHING, args: ['stdio'] } } }));
    const env = { ...process.env, HOME: home, SANDBAR_HOME: path.join(home, 'sb'), SANDBAR_IMAGE: sandbox.image, MCP_SERVERS_CONFIG: config };
    const cli = path.resolve('dist/electron/cli.js');
    const ok = spawnSync(process.execPath, [cli, 'run', '--servers', 'everything', '-'], { input: 'print((await mcp_everything.echo(message="cli"))["content"][0]["text"])', encoding: 'utf8', env, timeout: 120_000 });
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe('Echo: cli\n');
    expect(ok.status).toBe(0);
    const unknown = spawnSync(process.execPath, [cli, 'run', '--servers', 'nope', '-'], { input: 'print(1)', encoding: 'utf8', env, timeout: 60_000 });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('Unknown MCP server: nope');
  });
});
