// A call made the moment `sandbar serve` shows where it listens waits for the engine (bounded) and runs,
// instead of failing with "the pool has not been configured": once when instance.json appears (the listener
// is up before the engine has started; `sandbar run` and `stdio` read this file), once at the printed URL.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sandbox } from '../helpers.js';
import { newHome } from '../security/serve-helpers.js';
import { baseEnv, killAllChildren, REPO_ROOT, SANDBAR_BIN } from './real-clients-helpers.js';

async function callAt(url: string, token: string): Promise<CallToolResult> {
  const client = new Client({ name: 'instant-caller', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  try {
    return (await client.callTool({ name: 'run_python', arguments: { code: 'print(6 * 7)' } }, undefined, { timeout: 120_000 })) as CallToolResult;
  } finally {
    await client.close();
  }
}

function serve(settings: Record<string, unknown>) {
  const { home, userHome } = newHome(settings);
  const env = baseEnv({ SANDBAR_HOME: home, HOME: userHome, XDG_CONFIG_HOME: path.join(userHome, '.config') });
  const child = spawn(process.execPath, [SANDBAR_BIN, 'serve', '--port', '0'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  return {
    home,
    token: () => readFileSync(path.join(home, 'token'), 'utf8').trim(),
    stdout: () => stdout,
    stderr: () => stderr,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

async function until<T>(get: () => T | undefined, timeoutMs: number, stepMs = 2): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

describe.skipIf(!sandbox.available)('a call at the instant the endpoint appears', () => {
  afterEach(() => killAllChildren());

  it('runs when made as soon as instance.json names the URL (before the engine has started)', async () => {
    const s = serve({ poolSize: 2 });
    try {
      const file = path.join(s.home, 'instance.json');
      const url = await until(() => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { url: string }).url : undefined), 60_000);
      // The banner comes only once everything has started: the call below really is earlier than that.
      const bannerBefore = s.stdout().includes('Sandbar MCP endpoint:');
      const r = await callAt(url, s.token());
      expect((r.content[0] as { text: string }).text, s.stderr()).toBe('42');
      expect(r.isError).toBe(false);
      expect(bannerBefore).toBe(false);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 150_000);

  it('runs when made the moment `serve` prints its URL', async () => {
    const s = serve({ poolSize: 2 });
    try {
      const url = await until(() => /Sandbar MCP endpoint: (\S+)/.exec(s.stdout())?.[1], 60_000);
      const r = await callAt(url, s.token());
      expect((r.content[0] as { text: string }).text, s.stderr()).toBe('42');
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 150_000);
});
