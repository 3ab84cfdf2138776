// MCP layer overhead: `run_python` of `print(1)` end to end through the HTTP endpoint with the SDK client,
// against the same engine called directly, and against the same HTTP path around an engine that answers at
// once (what the protocol itself costs). The three sides alternate call by call (A B C A B C) in one run,
// 0.5 s apart, so the machine's drift hits all of them alike.
import { benchRuns } from './bench-runs.js';
import { CliBackend } from '../../electron/sandbox/cli/cli-backend.js';
import { newOwner } from '../../electron/sandbox/backend.js';
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
import { ContainerRuntime } from '../../electron/sandbox/cli/container-runtime.js';
import { Engine } from '../../electron/sandbox/engine.js';
import { DEFAULT_ENGINE_CONFIG } from '../../electron/sandbox/engine-config.js';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/settings.js';
import { ms, percentile, sleep, timed } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PAUSE_MS = 500;

type Log = ReturnType<typeof createLogger>;

/** An HTTP endpoint and a connected SDK client around `engine`, with the same settings on every side. */
async function mcpOver(engine: Engine, settings: Settings, token: string, log: Log): Promise<{ client: Client; close: () => Promise<void> }> {
  const endpoint = new HttpEndpoint({
    port: 0,
    token: () => token,
    createServer: () =>
      createMcpServer({ runs: benchRuns(engine, () => settings, new ServerManager({ startTimeoutMs: 15_000, callTimeoutMs: 60_000, version: 'bench', policy: () => 'allow', publish: () => {} })), settings: () => settings, log, version: 'bench', transport: 'http' }),
    log,
  });
  await endpoint.start();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return {
    client,
    close: async () => {
      await client.close();
      await endpoint.close();
    },
  };
}

/** An engine that answers at once: what is left is the client, HTTP, JSON-RPC, session, validation, formatting. */
function instantEngine(): Engine {
  const result = {
    id: 'x', exitReason: 'success' as const, exitCode: 0, stdout: '1\n', stderr: '', stdoutTruncated: false, stderrTruncated: false,
    timeoutSec: 30, limits: DEFAULT_SETTINGS.limits, queuedAt: 0, startedAt: 0, finishedAt: 0, durationMs: 0,
  };
  const instant = { submit: () => ({ id: 'x', result: Promise.resolve(result) }), snapshot: () => ({ queued: [], running: [] }), subscribe: () => () => {} };
  return instant as unknown as Engine;
}

export async function benchMcp(): Promise<string> {
  const engine = new Engine(new CliBackend(new ContainerRuntime({ env: process.env, platform: process.platform }), newOwner()), { ...DEFAULT_ENGINE_CONFIG, image: IMAGE, poolSize: 2 });
  await engine.start();
  const log = createLogger('bench', { SANDBAR_LOG_LEVEL: 'error' });
  const { token } = loadOrCreateToken(mkdtempSync(path.join(tmpdir(), 'sandbar-bench-')));
  const settings = { ...DEFAULT_SETTINGS, image: IMAGE };
  const real = await mcpOver(engine, settings, token, log);
  const stub = await mcpOver(instantEngine(), settings, token, log);
  await sleep(3000); // the pool fills

  const callTool = async (client: Client) => {
    const r = await client.callTool({ name: 'run_python', arguments: { code: 'print(1)' } });
    if (r.isError) throw new Error(JSON.stringify(r));
  };
  const viaMcp: number[] = [];
  const direct: number[] = [];
  const protocolOnly: number[] = [];
  try {
    // One warm-up call each (first-request costs: session, module caches), not counted.
    await callTool(real.client);
    await engine.submit({ code: 'print(1)' }).result;
    await callTool(stub.client);
    await sleep(PAUSE_MS);
    for (let i = 0; i < RUNS; i++) {
      viaMcp.push(await timed(() => callTool(real.client)));
      await sleep(PAUSE_MS);
      direct.push(await timed(async () => {
        const r = await engine.submit({ code: 'print(1)' }).result;
        if (r.exitReason !== 'success') throw new Error(r.exitReason);
      }));
      await sleep(PAUSE_MS);
      protocolOnly.push(await timed(() => callTool(stub.client)));
      await sleep(PAUSE_MS);
    }
  } finally {
    await real.close();
    await stub.close();
    await engine.dispose();
  }
  const overhead = percentile(viaMcp, 50) - percentile(direct, 50);
  return [
    `### MCP: \`run_python\` of \`print(1)\` over HTTP with the SDK client vs the engine alone (${RUNS} each, ${PAUSE_MS} ms apart, interleaved A B C A B C)`,
    '',
    '| path | p50 ms | p95 ms |',
    '|---|---|---|',
    `| A: SDK client → HTTP endpoint → engine | ${ms(percentile(viaMcp, 50))} | ${ms(percentile(viaMcp, 95))} |`,
    `| B: engine.submit() alone | ${ms(percentile(direct, 50))} | ${ms(percentile(direct, 95))} |`,
    `| C: same HTTP path, instant stand-in engine (protocol cost alone) | ${ms(percentile(protocolOnly, 50))} | ${ms(percentile(protocolOnly, 95))} |`,
    '',
    `The MCP layer (client, HTTP, JSON-RPC, session, validation, formatting) adds **${ms(overhead)} ms** at p50 with real runs (A − B; ` +
      `target: under 5 ms); its own cost with an engine that answers at once is ${ms(percentile(protocolOnly, 50))} ms (C).`,
  ].join('\n');
}
