// `sandbar stdio` joins a running instance of the same home (one engine, one history for every client),
// runs its own engine when there is none, and ignores a stale instance file left by a crash.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTANCE_FILE, readInstance } from '../../../electron/instance-file.js';
import { sandbox } from '../helpers.js';
import { startTestApp, type TestApp } from './control-helpers.js';

async function stdioClient(home: string, name: string, extraArgs: string[] = []): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.resolve('dist/electron/cli.js'), 'stdio', ...extraArgs],
    env: { ...(process.env as Record<string, string>), SANDBAR_HOME: home, SANDBAR_LOG_LEVEL: 'info' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name, version: '2.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content.map((c) => c.text).join('');

describe.skipIf(!sandbox.available)('sandbar stdio and a running instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
    if (t) expect(readInstance(t.home)).toBeNull();
  });

  it('the running instance advertises itself in SANDBAR_HOME', () => {
    expect(readInstance(t.home)).toMatchObject({ pid: process.pid, url: `${t.baseUrl()}/mcp` });
  });

  it('joins it: the run happens in the instance, recorded under the stdio client name, with the servers it proxies', async () => {
    const { client, stderr } = await stdioClient(t.home, 'bridged-client');
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((x) => x.name)).toEqual(['run_python']);
      const result = await client.callTool({ name: 'run_python', arguments: { code: 'print("through the bridge")', servers: ['everything'] } });
      expect(textOf(result)).toContain('through the bridge');
      const page = t.app.core.history.list({ client: 'bridged-client' });
      expect(page.items).toHaveLength(1);
      expect(page.items[0]).toMatchObject({ transport: 'http', client: { name: 'bridged-client', version: '2.0.0' }, servers: ['everything'] });
      expect(stderr()).toContain(`joining the running Sandbar at ${t.baseUrl()}/mcp`);
    } finally {
      await client.close();
    }
  });

  it('--no-bridge runs its own engine (recorded as a stdio run)', async () => {
    const { client, stderr } = await stdioClient(t.home, 'own-engine', ['--no-bridge']);
    try {
      const result = await client.callTool({ name: 'run_python', arguments: { code: 'print(6*7)' } });
      expect(textOf(result)).toContain('42');
      expect(stderr()).not.toContain('joining');
    } finally {
      await client.close();
    }
    const row = t.app.core.history.list({ client: 'own-engine' }).items[0];
    expect(row?.transport).toBe('stdio');
  });

  it('a stale instance file (its process is gone) is ignored', async () => {
    const home = path.join(t.home, 'other');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ image: sandbox.image, poolSize: 0 }));
    writeFileSync(path.join(home, INSTANCE_FILE), JSON.stringify({ pid: 2 ** 22 + 12345, url: 'http://127.0.0.1:9/mcp', startedAt: 0 }));
    const { client, stderr } = await stdioClient(home, 'after-crash');
    try {
      const result = await client.callTool({ name: 'run_python', arguments: { code: 'print("alone")' } });
      expect(textOf(result)).toContain('alone');
      expect(stderr()).not.toContain('joining');
    } finally {
      await client.close();
    }
  });
});
