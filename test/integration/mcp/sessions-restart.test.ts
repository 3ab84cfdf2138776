// A Sandbar killed with SIGKILL while holding a paused session: the next start removes every container it
// left (the session's included), and the old id works no more.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { runtimeBinary, sandbox, waitFor } from '../helpers.js';
import { tempHome } from './mcp-helpers.js';

const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

/** Containers labelled with this Sandbar process id, in any state (paused included). */
function containersOfPid(pid: number): string[] {
  const out = execFileSync(runtimeBinary(), ['ps', '--all', '--filter', `label=sandbar.pid=${pid}`, '--format', '{{.Names}}'], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

/** Frozen: podman says paused, or the OCI runtime does (Sandbar freezes through it on Podman with runc/crun). */
function paused(name: string): boolean {
  try {
    const [status, id, oci] = execFileSync(runtimeBinary(), ['inspect', '--format', '{{.State.Status}} {{.Id}} {{.OCIRuntime}}', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split(' ');
    if (status === 'paused') return true;
    if (oci !== 'runc' && oci !== 'crun') return false;
    return (JSON.parse(execFileSync(oci, ['state', id!], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { status: string }).status === 'paused';
  } catch {
    return false;
  }
}

describe.skipIf(!sandbox.available)('sessions across a host crash', { timeout: 120_000 }, () => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  });

  async function stdio(home: string): Promise<{ client: Client; pid: number }> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve('dist/electron/cli.js'), 'stdio'],
      env: { ...(process.env as Record<string, string>), SANDBAR_HOME: home, SANDBAR_IMAGE: sandbox.image, SANDBAR_LOG_LEVEL: 'warn' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'vitest-stdio', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return { client, pid: transport.pid! };
  }

  it('SIGKILL of the host, then a start: 0 of its containers are left, and the old id is refused', async () => {
    const home = tempHome();
    const first = await stdio(home);
    const opened = (await first.client.callTool({ name: 'run_python', arguments: { code: 'kept = 1', session: 'new' } })) as CallToolResult;
    const id = /^session: ([0-9a-f]{32})$/m.exec(textOf(opened))?.[1];
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(await waitFor(() => containersOfPid(first.pid).some(paused), 15_000)).toBe(true);

    process.kill(first.pid, 'SIGKILL');
    expect(containersOfPid(first.pid).length).toBeGreaterThan(0); // the runtime keeps them: only a start reaps

    const second = await stdio(home);
    const late = (await second.client.callTool({ name: 'run_python', arguments: { code: 'print(kept)', session: id } })) as CallToolResult;
    expect(late.isError).toBe(true);
    expect(textOf(late)).toMatch(/session .*(unknown|expired)/);
    expect(await waitFor(() => containersOfPid(first.pid).length === 0, 30_000)).toBe(true);
  });
});
