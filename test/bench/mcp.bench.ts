// The lone call: `run_python` of `print(1)` over Streamable HTTP with the SDK client against a running
// `sandbar serve` (the product as shipped: history, live view, health), set against a cold hardened
// `podman run --rm` of the same code measured in the same run (target: the call ≥ 50× faster at p50).
// Beside them, to show where the time goes: the engine alone (in this process) and the same HTTP path
// around an engine that answers at once (what the protocol costs). The four sides alternate call by call
// (A B C D A B C D), 0.5 s apart, so the machine's drift hits all of them alike. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { benchRuns } from './bench-runs.js';
import { coldRun } from './cold-run.js';
import { CliBackend } from '../../electron/sandbox/cli/cli-backend.js';
import { newOwner } from '../../electron/sandbox/backend.js';
import { createLogger } from '../../electron/logger.js';
import { HttpEndpoint } from '../../electron/mcp/http-endpoint.js';
import { createMcpServer } from '../../electron/mcp/server-factory.js';
import { ServerManager } from '../../electron/proxy/server-manager.js';
import { ContainerRuntime } from '../../electron/sandbox/cli/container-runtime.js';
import { Engine } from '../../electron/sandbox/engine.js';
import { DEFAULT_ENGINE_CONFIG } from '../../electron/sandbox/engine-config.js';
import { DEFAULT_SETTINGS } from '../../shared/settings.js';
import { ms, percentile, sleep, timed } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PAUSE_MS = 500;
const CLI = path.resolve('dist/electron/cli.js');
const TARGET = 50;

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

/** `sandbar serve` from dist/ in a fresh home (pool of 2, the default image settings otherwise). */
async function serve(): Promise<{ client: Client; close: () => Promise<void> }> {
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-bench-mcp-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ image: IMAGE, httpPort: 0, poolSize: 2 }));
  const child = spawn(process.execPath, [CLI, 'serve', '--no-print-token'], { env: { ...process.env, SANDBAR_HOME: home }, stdio: 'ignore' });
  const instance = path.join(home, 'instance.json');
  for (let t = 0; t < 150 && !existsSync(instance); t++) await sleep(100);
  if (!existsSync(instance)) throw new Error('sandbar serve did not start');
  const { url } = JSON.parse(readFileSync(instance, 'utf8')) as { url: string };
  const client = await connect(url, readFileSync(path.join(home, 'token'), 'utf8').trim());
  return {
    client,
    close: async () => {
      await client.close();
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** An engine that answers at once: what is left is the client, HTTP, JSON-RPC, session, validation, formatting. */
function instantEngine(): Engine {
  const result = {
    id: 'x', exitReason: 'success' as const, exitCode: 0, stdout: '1\n', stderr: '', stdoutTruncated: false, stderrTruncated: false,
    timeoutSec: 30, limits: DEFAULT_SETTINGS.limits, queuedAt: 0, startedAt: 0, finishedAt: 0, durationMs: 0,
  };
  const instant = {
    submit: () => ({ id: 'x', result: Promise.resolve(result) }),
    snapshot: () => ({ queued: [], running: [] }),
    subscribe: () => () => {},
    refusal: () => null,
    backend: { features: { packages: false, label: 'instant' } },
  };
  return instant as unknown as Engine;
}

/** The HTTP endpoint in this process around the instant engine, with an SDK client. */
async function protocolOnly(): Promise<{ client: Client; close: () => Promise<void> }> {
  const log = createLogger('bench', { SANDBAR_LOG_LEVEL: 'error' });
  const settings = { ...DEFAULT_SETTINGS, image: IMAGE };
  const token = 'b'.repeat(64);
  const servers = new ServerManager({ startTimeoutMs: 15_000, callTimeoutMs: 60_000, version: 'bench', policy: () => 'allow', publish: () => {} });
  const endpoint = new HttpEndpoint({
    port: 0,
    token: () => token,
    createServer: () => createMcpServer({ runs: benchRuns(instantEngine(), () => settings, servers), settings: () => settings, log, version: 'bench', transport: 'http' }),
    log,
  });
  await endpoint.start();
  const client = await connect(endpoint.url, token);
  return {
    client,
    close: async () => {
      await client.close();
      await endpoint.close();
    },
  };
}

export async function benchMcp(): Promise<string> {
  const engine = new Engine(new CliBackend(new ContainerRuntime({ env: process.env, platform: process.platform }), newOwner()), { ...DEFAULT_ENGINE_CONFIG, image: IMAGE, poolSize: 2 });
  await engine.start();
  const cold = await coldRun(IMAGE, 'mcp');
  const real = await serve();
  const stub = await protocolOnly();
  await sleep(3000); // the pools fill

  const callTool = async (client: Client) => {
    const r = await client.callTool({ name: 'run_python', arguments: { code: 'print(1)' } });
    if (r.isError) throw new Error(JSON.stringify(r));
  };
  const direct = async () => {
    const r = await engine.submit({ code: 'print(1)' }).result;
    if (r.exitReason !== 'success') throw new Error(r.exitReason);
  };
  const sides = { viaServe: [] as number[], coldRun: [] as number[], direct: [] as number[], protocol: [] as number[] };
  try {
    // One warm-up each (first-request costs: session, module caches, the image's page cache), not counted.
    await callTool(real.client);
    await cold.once('print(1)');
    await direct();
    await callTool(stub.client);
    await sleep(PAUSE_MS);
    for (let i = 0; i < RUNS; i++) {
      sides.viaServe.push(await timed(() => callTool(real.client)));
      await sleep(PAUSE_MS);
      sides.coldRun.push(await timed(() => cold.once('print(1)')));
      await sleep(PAUSE_MS);
      sides.direct.push(await timed(direct));
      await sleep(PAUSE_MS);
      sides.protocol.push(await timed(() => callTool(stub.client)));
      await sleep(PAUSE_MS);
    }
  } finally {
    await real.close();
    await stub.close();
    await engine.dispose();
  }
  const p = (xs: number[], q: number) => percentile(xs, q);
  const ratio = p(sides.coldRun, 50) / p(sides.viaServe, 50);
  return [
    `### MCP: the lone call, \`run_python\` of \`print(1)\` over HTTP, against a cold \`${cold.runtime} run --rm\` (${RUNS} each, ${PAUSE_MS} ms apart, interleaved A B C D)`,
    '',
    '| side | p50 ms | p95 ms |',
    '|---|---|---|',
    `| A: SDK client → \`sandbar serve\` (history, live view, health: the product) | ${ms(p(sides.viaServe, 50))} | ${ms(p(sides.viaServe, 95))} |`,
    `| B: cold hardened \`${cold.runtime} run --rm\` of the same code (Sandbar's flags and seccomp) | ${ms(p(sides.coldRun, 50))} | ${ms(p(sides.coldRun, 95))} |`,
    `| C: engine.submit() alone, in the bench's process | ${ms(p(sides.direct, 50))} | ${ms(p(sides.direct, 95))} |`,
    `| D: the HTTP path in the bench's process around an engine that answers at once (protocol cost) | ${ms(p(sides.protocol, 50))} | ${ms(p(sides.protocol, 95))} |`,
    '',
    `The lone call is **${ratio.toFixed(1)}×** faster than a cold run at p50 (B / A; target ≥ ${TARGET}×, ` +
      `${ratio >= TARGET ? 'met' : 'not met'}; the target call time here would be ${ms(p(sides.coldRun, 50) / TARGET)} ms). ` +
      `Beyond the engine, the call adds ${ms(p(sides.viaServe, 50) - p(sides.direct, 50))} ms (A − C); the protocol alone costs ${ms(p(sides.protocol, 50))} ms (D).`,
  ].join('\n');
}
