// The MCP server over time: cancellation, many concurrent calls, clean shutdown, and stdio framing.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/sandbox/engine.js';
import type { ExecutionResult } from '../../../shared/execution.js';
import { containersOf, runtimeBinary, sandbox, startEngine, waitFor } from '../helpers.js';
import { httpFixture, tempHome, type HttpFixture } from './mcp-helpers.js';

const CLI = path.resolve('dist/electron/cli.js');

describe.skipIf(!sandbox.available)('MCP server lifecycle', () => {
  let engine: Engine;
  let http: HttpFixture;
  const finished: ExecutionResult[] = [];
  let running = 0;
  let maxRunning = 0;

  beforeAll(async () => {
    engine = await startEngine({ poolSize: 2, concurrency: 4 });
    engine.subscribe((e) => {
      if (e.type === 'started') maxRunning = Math.max(maxRunning, ++running);
      if (e.type === 'finished') {
        if (e.result.startedAt !== null) running--;
        finished.push(e.result);
      }
    });
    http = await httpFixture(engine);
  });
  afterAll(async () => {
    await http?.close();
    await engine?.dispose();
  });

  it('cancels a sleeping run when the client cancels, and removes its container', async () => {
    const client = await http.client();
    const controller = new AbortController();
    const started = new Promise<string>((resolve) => engine.subscribe((e) => e.type === 'started' && resolve(e.id)));
    const pending = client.callTool({ name: 'run_python', arguments: { code: 'import time\ntime.sleep(60)', timeout: 90 } }, undefined, { signal: controller.signal });
    const id = await started;
    controller.abort('user pressed stop');
    await expect(pending).rejects.toThrow();
    expect(await waitFor(() => finished.some((r) => r.id === id), 5000)).toBe(true);
    const result = finished.find((r) => r.id === id)!;
    expect(result.exitReason).toBe('cancelled');
    expect(result.durationMs).toBeLessThan(10_000);
    expect(await waitFor(() => !containersOf(engine.owner.instanceId).includes(result.containerName!), 3000)).toBe(true);
  });

  it('completes 20 concurrent calls from several sessions, each with its own output, 4 at a time', async () => {
    maxRunning = 0;
    const sessions = await Promise.all([http.client(), http.client(), http.client(), http.client()]);
    const calls = Array.from({ length: 20 }, (_, i) =>
      sessions[i % sessions.length]!.callTool({ name: 'run_python', arguments: { code: `import time\ntime.sleep(0.3)\nprint("call-${i}")` } }) as Promise<CallToolResult>,
    );
    const results = await Promise.all(calls);
    results.forEach((r, i) => {
      expect(r.isError).toBe(false);
      expect(r.content).toEqual([{ type: 'text', text: `call-${i}` }]);
    });
    expect(maxRunning).toBeLessThanOrEqual(4);
    expect(maxRunning).toBeGreaterThan(1);
  });
});

describe.skipIf(!sandbox.available)('sandbar serve shutdown', () => {
  let child: ChildProcess | undefined;
  afterAll(() => child?.kill('SIGKILL'));

  it('SIGTERM during a run exits 0 and leaves no container behind', async () => {
    const home = tempHome();
    child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
      env: { ...process.env, SANDBAR_HOME: home, SANDBAR_IMAGE: sandbox.image, SANDBAR_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child!.stdout! }).on('line', (line) => {
        const m = /^Sandbar MCP endpoint: (\S+)$/.exec(line);
        if (m) resolve(m[1]!);
      });
      child!.once('exit', (code) => reject(new Error(`serve exited early (${code})`)));
    });
    const token = readFileSync(path.join(home, 'token'), 'utf8').trim();
    const client = new Client({ name: 'shutdown-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const call = client.callTool({ name: 'run_python', arguments: { code: 'import time\nprint("sleeping", flush=True)\ntime.sleep(120)', timeout: 120 } }).catch((e: unknown) => e);

    const byPid = () =>
      execFileSync(runtimeBinary(), ['ps', '--all', '--filter', `label=sandbar.pid=${child!.pid}`, '--format', '{{.Names}}'], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean);
    // The pool's containers and the running one all carry the serve process's pid.
    expect(await waitFor(() => byPid().length >= 1, 20_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 30_000))]);
    expect(code).toBe(0);
    await call;
    expect(await waitFor(() => byPid().length === 0, 5000)).toBe(true);
  });
});

describe.skipIf(!sandbox.available)('sandbar stdio framing', () => {
  it('ignores blank lines and writes nothing but JSON-RPC frames to stdout', async () => {
    const child = spawn(process.execPath, [CLI, 'stdio'], {
      env: { ...process.env, SANDBAR_HOME: tempHome(), SANDBAR_IMAGE: sandbox.image, SANDBAR_LOG_LEVEL: 'debug' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const frame = (o: unknown) => `${JSON.stringify(o)}\n`;
    child.stdin.write('\n\n   \n');
    child.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    child.stdin.write('\n');
    child.stdin.write(frame({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    child.stdin.write('\r\n\n');
    child.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run_python', arguments: { code: 'print("framed")' } } }));
    expect(await waitFor(() => stdout.includes('"id":2'), 60_000)).toBe(true);
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    const lines = stdout.split('\n').filter((l) => l !== '');
    const messages = lines.map((l) => JSON.parse(l) as { id?: number; method?: string; error?: unknown; result?: { content?: unknown } });
    expect(messages.every((m) => (m as { jsonrpc?: string }).jsonrpc === '2.0')).toBe(true);
    expect(messages.filter((m) => m.error !== undefined)).toEqual([]);
    expect(messages.filter((m) => m.method !== undefined)).toEqual([]);
    expect(messages.find((m) => m.id === 2)?.result?.content).toEqual([{ type: 'text', text: 'framed' }]);
    // Logs went to stderr.
    expect(stderr).toMatch(/\[stdio\]/);
  });
});
