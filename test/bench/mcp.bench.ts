// MCP layer overhead: `run_python` of `print(1)` end to end through the HTTP endpoint with the SDK client,
// against the same engine called directly, interleaved in one run (30 calls each, 0.5 s apart).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../electron/logger.js';
import { HttpEndpoint } from '../../electron/mcp/http-endpoint.js';
import { loadOrCreateToken } from '../../electron/http/token-store.js';
import { createMcpServer } from '../../electron/mcp/server-factory.js';
import { ServerManager } from '../../electron/proxy/server-manager.js';
import { ContainerRuntime } from '../../electron/sandbox/container-runtime.js';
import { Engine } from '../../electron/sandbox/engine.js';
import { DEFAULT_ENGINE_CONFIG } from '../../electron/settings/env-config.js';
import { DEFAULT_SETTINGS } from '../../shared/settings.js';
import { ms, percentile, sleep, timed } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

export async function benchMcp(): Promise<string> {
  const engine = new Engine(new ContainerRuntime({ env: process.env, platform: process.platform }), { ...DEFAULT_ENGINE_CONFIG, image: IMAGE, poolSize: 2 });
  await engine.start();
  const log = createLogger('bench', { SANDBAR_LOG_LEVEL: 'error' });
  const { token, file } = loadOrCreateToken(mkdtempSync(path.join(tmpdir(), 'sandbar-bench-')));
  const settings = { ...DEFAULT_SETTINGS, image: IMAGE };
  const endpoint = new HttpEndpoint({
    port: 0,
    token: () => token,
    createServer: () => createMcpServer({ engine, settings: () => settings, servers: new ServerManager({ startTimeoutMs: 15_000, callTimeoutMs: 60_000, version: 'bench', policy: () => 'allow', publish: () => {} }), log, version: 'bench', transport: 'http' }),
    log,
  });
  await endpoint.start();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  await sleep(3000);

  const viaMcp: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    viaMcp.push(await timed(async () => {
      const r = await client.callTool({ name: 'run_python', arguments: { code: 'print(1)' } });
      if (r.isError) throw new Error(JSON.stringify(r));
    }));
    await sleep(500);
    direct.push(await timed(async () => {
      const r = await engine.submit({ code: 'print(1)' }).result;
      if (r.exitReason !== 'success') throw new Error(r.exitReason);
    }));
    await sleep(500);
  }
  await client.close();
  await endpoint.close();
  await engine.dispose();
  const protocolOnly = await protocolCost(token, file, log);
  const overhead = percentile(viaMcp, 50) - percentile(direct, 50);
  return [
    `### MCP: \`run_python\` of \`print(1)\` over HTTP with the SDK client vs the engine alone (${RUNS} each, 0.5 s apart, interleaved)`,
    '',
    '| path | p50 ms | p95 ms |',
    '|---|---|---|',
    `| SDK client → HTTP endpoint → engine | ${ms(percentile(viaMcp, 50))} | ${ms(percentile(viaMcp, 95))} |`,
    `| engine.submit() alone | ${ms(percentile(direct, 50))} | ${ms(percentile(direct, 95))} |`,
    `| same HTTP path, instant stand-in engine (protocol cost alone) | ${ms(percentile(protocolOnly, 50))} | ${ms(percentile(protocolOnly, 95))} |`,
    '',
    `The MCP layer (client, HTTP, JSON-RPC, session, validation, formatting) adds **${ms(overhead)} ms** at p50 with real runs ` +
      `(target: under 5 ms); its own cost with nothing else running is ${ms(percentile(protocolOnly, 50))} ms.`,
  ].join('\n');
}

/** The same client and endpoint around an engine that answers at once: what the protocol itself costs. */
async function protocolCost(token: string, tokenFile: string, log: ReturnType<typeof createLogger>): Promise<number[]> {
  const result = {
    id: 'x', exitReason: 'success' as const, exitCode: 0, stdout: '1\n', stderr: '', stdoutTruncated: false, stderrTruncated: false,
    timeoutSec: 30, limits: DEFAULT_SETTINGS.limits, queuedAt: 0, startedAt: 0, finishedAt: 0, durationMs: 0,
  };
  const instant = { submit: () => ({ id: 'x', result: Promise.resolve(result) }), snapshot: () => ({ queued: [], running: [] }), subscribe: () => () => {} };
  const endpoint = new HttpEndpoint({
    port: 0,
    token: () => token,
    createServer: () =>
      createMcpServer({ engine: instant as unknown as Engine, settings: () => DEFAULT_SETTINGS, servers: new ServerManager({ startTimeoutMs: 15_000, callTimeoutMs: 60_000, version: 'bench', policy: () => 'allow', publish: () => {} }), log, version: 'bench', transport: 'http' }),
    log,
  });
  await endpoint.start();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(() => client.callTool({ name: 'run_python', arguments: { code: 'print(1)' } })));
  await client.close();
  await endpoint.close();
  return times;
}
