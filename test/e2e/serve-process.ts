// A real `sandbar serve` child process (the built CLI, its own SANDBAR_HOME and a temporary user HOME)
// and Debian's Chromium: shared by the end-to-end tests and the panel benchmarks (no vitest here).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium, type Browser } from 'playwright-core';

const require = createRequire(import.meta.url);
export const EVERYTHING_BIN = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const CHROMIUM = process.env.SANDBAR_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Served {
  panelUrl: string;
  mcpUrl: string;
  baseUrl: string;
  /** The panel token (from the link): the control API. */
  token: string;
  /** The client token (from its file): /mcp. */
  clientToken: string;
  home: string;
  userHome: string;
  instanceLog(): string;
  stop(): Promise<void>;
}

export async function startServe(options: { image: string; settings?: Record<string, unknown>; home?: string }): Promise<Served> {
  const home = options.home ?? mkdtempSync(path.join(tmpdir(), 'sandbar-e2e-'));
  const settings = options.settings ?? {};
  const userHome = mkdtempSync(path.join(tmpdir(), 'sandbar-e2e-user-'));
  mkdirSync(path.join(userHome, '.config', 'Claude'), { recursive: true });
  writeFileSync(
    path.join(home, 'settings.json'),
    JSON.stringify({
      image: options.image,
      poolSize: 1,
      httpPort: 0,
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] } },
      ...settings,
    }),
  );
  const child: ChildProcess = spawn(process.execPath, [path.resolve('dist/electron/cli.js'), 'serve'], {
    env: { ...process.env, SANDBAR_HOME: home, HOME: userHome, XDG_CONFIG_HOME: path.join(userHome, '.config'), SANDBAR_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const panelUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbar serve did not start:\n${out}\n${err}`)), 60_000);
    const check = () => {
      const match = /Panel[^:]*: (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`sandbar serve exited (${code}):\n${out}\n${err}`)));
  });
  const url = new URL(panelUrl);
  return {
    panelUrl,
    baseUrl: url.origin,
    mcpUrl: `${url.origin}/mcp`,
    token: url.hash.replace('#token=', ''),
    clientToken: readFileSync(path.join(home, 'token'), 'utf8').trim(),
    home,
    userHome,
    instanceLog: () => `${out}\n${err}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** An MCP client on the served endpoint, with the client token. */
export async function mcpClient(served: Served, name = 'e2e-agent'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(served.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${served.clientToken}` } } });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The control API as the panel calls it (to check facts behind what the page shows). */
export async function apiCall<T>(served: Served, method: string, args: unknown = {}): Promise<T> {
  const res = await fetch(`${served.baseUrl}/api/call/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  const envelope = (await res.json()) as { ok: true; value: T } | { ok: false; error: { message: string } };
  if (!envelope.ok) throw new Error(`${method}: ${envelope.error.message}`);
  return envelope.value;
}
