// Sessions: per-call latency of `run_python` of `print(1)` in an open session (resume, run, pause after the
// answer) against a plain pooled run (a warm single-use container), both through the HTTP endpoint with the
// SDK client. The two alternate call by call (A B A B), each on a quiet machine (0.5 s apart, the pool
// refilled), so the machine's drift hits both alike.
// Target (issue 15): a session call within 1.5 × a plain run + 20 ms at p50.
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
import { engineSandboxes } from '../../electron/sessions/engine-sandboxes.js';
import { SessionRegistry } from '../../electron/sessions/session-registry.js';
import { DEFAULT_ENGINE_CONFIG } from '../../electron/sandbox/engine-config.js';
import { DEFAULT_SETTINGS } from '../../shared/settings.js';
import { ms, percentile, sleep, timed } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
export const RUNS = Number(process.env.BENCH_RUNS ?? 30);
export const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 500);

/** An engine with a pool of 2, a session registry and the HTTP endpoint, with an SDK client connected to it. */
export async function sessionBench(checkpoints = 5) {
  const engine = new Engine(new CliBackend(new ContainerRuntime({ env: process.env, platform: process.platform }), newOwner()), { ...DEFAULT_ENGINE_CONFIG, image: IMAGE, poolSize: 2 });
  await engine.start();
  const sessions = new SessionRegistry(engineSandboxes(engine), () => ({ idleSec: 600, maxSec: 3600, maxSessions: 2, checkpoints }), { memoryLimit: () => '512m' });
  const log = createLogger('bench', { SANDBAR_LOG_LEVEL: 'error' });
  const { token } = loadOrCreateToken(mkdtempSync(path.join(tmpdir(), 'sandbar-bench-')));
  const settings = { ...DEFAULT_SETTINGS, image: IMAGE };
  const servers = new ServerManager({ startTimeoutMs: 15_000, callTimeoutMs: 60_000, version: 'bench', policy: () => 'allow', publish: () => {} });
  const endpoint = new HttpEndpoint({
    port: 0,
    token: () => token,
    createServer: () => createMcpServer({ runs: benchRuns(engine, () => settings, servers, sessions), settings: () => settings, log, version: 'bench', transport: 'http' }),
    log,
  });
  await endpoint.start();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  await sleep(3000); // the pool fills

  const call = async (args: Record<string, unknown>) => {
    const r = await client.callTool({ name: 'run_python', arguments: { code: 'print(1)', ...args } });
    if (r.isError) throw new Error(JSON.stringify(r));
    return r;
  };
  // Each call starts on a quiet machine: the pool has refilled (a refill boots and preloads a container,
  // which would otherwise land on whichever side follows a plain run).
  const quiet = async () => {
    await sleep(PAUSE_MS);
    for (let i = 0; i < 100 && (engine.snapshot().pool.ready < 2 || engine.snapshot().pool.preloading); i++) await sleep(100);
  };
  const close = async () => {
    await client.close();
    await endpoint.close();
    sessions.dispose();
    await engine.dispose();
  };
  return { call, quiet, close };
}

export async function benchSessions(): Promise<string> {
  const { call, quiet, close } = await sessionBench();
  const inSession: number[] = [];
  const plain: number[] = [];
  try {
    const opened = await call({ session: 'new' });
    const id = /^session: ([0-9a-f]{32})/.exec((opened.content as { text: string }[])[0]!.text)![1]!;
    // One warm-up call each, not counted.
    await sleep(PAUSE_MS);
    await call({ session: id });
    await sleep(PAUSE_MS);
    await call({});
    await sleep(PAUSE_MS);
    for (let i = 0; i < RUNS; i++) {
      await quiet();
      inSession.push(await timed(() => call({ session: id })));
      await quiet();
      plain.push(await timed(() => call({})));
    }
  } finally {
    await close();
  }
  const a = percentile(inSession, 50);
  const b = percentile(plain, 50);
  const target = 1.5 * b + 20;
  return [
    `### Sessions: \`run_python\` of \`print(1)\` in a session vs a plain pooled run, over HTTP with the SDK client (${RUNS} each, interleaved A B A B, each ≥ ${PAUSE_MS} ms after the last and with the pool refilled)`,
    '',
    '| path | p50 ms | p95 ms |',
    '|---|---|---|',
    `| A: session call (resume a paused sandbox, run, pause after the answer) | ${ms(a)} | ${ms(percentile(inSession, 95))} |`,
    `| B: plain run (a warm single-use container from the pool) | ${ms(b)} | ${ms(percentile(plain, 95))} |`,
    '',
    `A / B at p50: **${(a / b).toFixed(2)}×**; target: A ≤ 1.5 × B + 20 ms = ${ms(target)} ms, so ${a <= target ? 'met' : 'NOT met'} (A = ${ms(a)} ms).`,
  ].join('\n');
}
