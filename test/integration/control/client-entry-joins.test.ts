// The Claude Desktop entry the Clients view writes, started the way Claude Desktop starts it (the command,
// its args and its env over a minimal environment; nothing of this test's SANDBAR_HOME): it joins the
// running instance, so its run lands in that instance's history.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../helpers.js';
import { httpCaller, startTestApp, type ApiCaller, type TestApp } from './control-helpers.js';

interface StdioEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

describe.skipIf(!sandbox.available)('a client entry written by clients.configure', () => {
  let t: TestApp;
  let api: ApiCaller;
  beforeAll(async () => {
    t = await startTestApp();
    api = await httpCaller(t);
  });
  afterAll(async () => {
    api?.close();
    await t?.close();
  });

  it('runs an absolute command that exists here with SANDBAR_HOME, and a process started from it joins this instance', async () => {
    const result = await api.value('clients.configure', { id: 'claude-desktop', action: 'add' });
    expect(result.changed).toBe(true);
    expect(result.summary).toContain(`with SANDBAR_HOME=${t.home}, so it joins this Sandbar`);
    const file = path.join(t.userHome, '.config', 'Claude', 'claude_desktop_config.json');
    const entry = (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, StdioEntry> }).mcpServers.sandbar!;
    expect(entry.command).toBe(process.execPath);
    expect(entry.args).toEqual([path.resolve('dist/electron/cli.js'), 'stdio']);
    for (const f of [entry.command, entry.args[0]!]) expect(path.isAbsolute(f) && existsSync(f), f).toBe(true);
    expect(entry.env).toEqual({ SANDBAR_HOME: t.home });

    // As Claude Desktop launches it: the entry's env over the small inherited set, from another folder.
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { ...getDefaultEnvironment(), HOME: t.userHome, ...entry.env, SANDBAR_LOG_LEVEL: 'info' },
      cwd: t.userHome,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'claude-desktop-entry', version: '1.0.0' });
    await client.connect(transport);
    try {
      const call = (await client.callTool({ name: 'run_python', arguments: { code: 'print("from the written entry")' } })) as { content: { text: string }[] };
      expect(call.content.map((c) => c.text).join('')).toContain('from the written entry');
      expect(stderr).toContain(`joining the running Sandbar at ${t.baseUrl()}/mcp`);
    } finally {
      await client.close();
    }
    // The same history: the instance recorded the run, under the entry's client name, over its HTTP endpoint.
    const page = t.app.core.history.list({ client: 'claude-desktop-entry' });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ transport: 'http', codePreview: 'print("from the written entry")' });
  });
});
