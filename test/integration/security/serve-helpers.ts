// A real `sandbar serve` in its own temp home, and the two ways into it: the control API with a chosen
// token, and an MCP SDK client with the client token. Used by the least-privilege tests.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Envelope } from '../../../shared/contract.js';
import { EVERYTHING_BIN } from '../control/control-helpers.js';
import { sandbox } from '../helpers.js';
import { baseEnv, startServe, type ServeProcess } from '../mcp/real-clients-helpers.js';

export interface Served {
  serve: ServeProcess;
  home: string;
  userHome: string;
  origin: string;
  clientToken(): string;
  panelToken(): string;
  api(token: string, method: string, args?: unknown): Promise<{ status: number; body: Envelope<unknown> & Record<string, unknown> }>;
  mcp(): Promise<Client>;
  stop(): Promise<void>;
}

export const SETTINGS_BASE = { poolSize: 0, mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] } } };

export function newHome(settings: Record<string, unknown> = {}): { home: string; userHome: string } {
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-lp-'));
  const userHome = mkdtempSync(path.join(tmpdir(), 'sandbar-lp-user-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ image: sandbox.image, ...SETTINGS_BASE, ...settings }));
  return { home, userHome };
}

export async function startServed(options: { settings?: Record<string, unknown>; env?: Record<string, string>; args?: string[]; home?: { home: string; userHome: string } } = {}): Promise<Served> {
  const { home, userHome } = options.home ?? newHome(options.settings);
  const serve = await startServe(baseEnv({ SANDBAR_HOME: home, HOME: userHome, XDG_CONFIG_HOME: path.join(userHome, '.config'), ...options.env }), 60_000, options.args ?? []);
  const origin = new URL(serve.url).origin;
  const clients: Client[] = [];
  const read = (file: string) => readFileSync(path.join(home, file), 'utf8').trim();
  return {
    serve,
    home,
    userHome,
    origin,
    clientToken: () => read('token'),
    panelToken: () => read('panel-token'),
    async api(token, method, args = {}) {
      const res = await fetch(`${origin}/api/call/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      return { status: res.status, body: (await res.json()) as Envelope<unknown> & Record<string, unknown> };
    },
    async mcp() {
      const client = new Client({ name: 'least-privilege-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { authorization: `Bearer ${read('token')}` } } }));
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.allSettled(clients.map((c) => c.close()));
      const code = await serve.stop();
      if (code !== 0) throw new Error(`sandbar serve exited with ${String(code)}\nstdout:\n${serve.stdout()}\nstderr:\n${serve.stderr()}`);
    },
  };
}

export const textOf = (result: unknown) => (result as { content: { type: string; text?: string }[] }).content.map((c) => c.text ?? '').join('');

/** Resident memory of a process in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}
