// Fan-out at warm speed (issue 30), in one run: a cold hardened `podman run --rm` of print(1) (the
// yardstick), 4 batches of 8 calls at once and 20 calls back to back over HTTP with the SDK client and
// default settings, interleaved round by round (cold, batch, cold, 5 back to back, cold). Then host CPU
// per run, measured for each side in a child process under test/bench/fanout/cpu-tree.py, which counts
// the whole process tree (runtime CLI, conmon, runc, the containers, the pool's refills and clean-up).
// Prints the ratios against the targets: batch of 8 p50 ≤ 0.5× cold; back to back p95 ≤ 0.25× cold;
// CPU per pooled run ≤ 1.1× a bare cold run.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { benchRuns } from './bench-runs.js';
import { coldArgsFor } from './fanout/cold.js';
import { createLogger } from '../../electron/logger.js';
import { loadOrCreateToken } from '../../electron/http/token-store.js';
import { HttpEndpoint } from '../../electron/mcp/http-endpoint.js';
import { createMcpServer } from '../../electron/mcp/server-factory.js';
import { ServerManager } from '../../electron/proxy/server-manager.js';
import { newOwner } from '../../electron/sandbox/backend.js';
import { CliBackend } from '../../electron/sandbox/cli/cli-backend.js';
import { ContainerRuntime } from '../../electron/sandbox/cli/container-runtime.js';
import { Engine } from '../../electron/sandbox/engine.js';
import { engineConfigOf } from '../../electron/sandbox/engine-config.js';
import { DEFAULT_SETTINGS } from '../../shared/settings.js';
import { ms, percentile, sleep, timed } from './stats.js';

const run = promisify(execFile);
const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const ROUNDS = 4;
const BATCH = 8;
const STREAK = 5; // back to back per round: 20 in all
const CPU_RUNS = Number(process.env.BENCH_FANOUT_CPU_RUNS ?? 16);

/**
 * Host CPU (ms) of one side, from a child process under the tree-counting wrapper: per run, and per
 * container made (the tree's CPU over the containers plus Node's per run), which is a pooled run's steady
 * cost; a short phase ends with a grown pool's unused containers removed, which only the first figure pays.
 */
async function cpuPerRun(mode: 'cold' | 'pooled'): Promise<{ perRun: number; perContainer: number }> {
  const child = path.resolve('test/bench/fanout/cpu-child.ts');
  const { stdout } = await run('python3', [path.resolve('test/bench/fanout/cpu-tree.py'), process.execPath, '--import', 'tsx', child, mode, String(CPU_RUNS)], { env: { ...process.env, SANDBAR_IMAGE: IMAGE }, maxBuffer: 1 << 20 });
  const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { phaseMs?: number; nodeMs?: number; containers?: number });
  const tree = lines.find((l) => l.phaseMs !== undefined)?.phaseMs;
  const node = lines.find((l) => l.nodeMs !== undefined);
  if (tree == null || node?.nodeMs == null || !node.containers) throw new Error(`no CPU figures from the ${mode} child: ${stdout}`);
  return { perRun: (tree + node.nodeMs) / CPU_RUNS, perContainer: tree / node.containers + node.nodeMs / CPU_RUNS };
}

export async function benchFanout(): Promise<string> {
  const settings = { ...DEFAULT_SETTINGS, image: IMAGE };
  const runtime = new ContainerRuntime({ env: process.env, platform: process.platform });
  const info = await runtime.resolve();
  const engine = new Engine(new CliBackend(runtime, newOwner()), engineConfigOf(settings));
  await engine.start();
  const log = createLogger('bench', { SANDBAR_LOG_LEVEL: 'error' });
  const { token } = loadOrCreateToken(mkdtempSync(path.join(tmpdir(), 'sandbar-bench-')));
  const servers = new ServerManager({ startTimeoutMs: 15_000, callTimeoutMs: 60_000, version: 'bench', policy: () => 'allow', publish: () => {} });
  const endpoint = new HttpEndpoint({
    port: 0,
    token: () => token,
    createServer: () => createMcpServer({ runs: benchRuns(engine, () => settings, servers), settings: () => settings, log, version: 'bench', transport: 'http' }),
    log,
  });
  await endpoint.start();
  // One client per concurrent caller, as agents fanning out hold one session each.
  const clients = await Promise.all(Array.from({ length: BATCH }, async () => {
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return client;
  }));
  const call = async (client: Client) => {
    const r = await client.callTool({ name: 'run_python', arguments: { code: 'print(1)' } });
    if (r.isError) throw new Error(JSON.stringify(r));
  };
  const coldArgs = coldArgsFor(info, engine.owner, IMAGE);
  let coldCount = 0;
  const cold = () => timed(() => run(info.path, coldArgs(`sandbar-bench-fanout-${process.pid}-${coldCount++}`, 'print(1)')));

  const coldMs: number[] = [];
  const batchWall: number[] = [];
  const batchCall: number[] = [];
  const streak: number[] = [];
  try {
    await sleep(4000); // the pool fills
    await call(clients[0]!); // first-request costs, not counted
    for (let r = 0; r < ROUNDS; r++) {
      coldMs.push(await cold());
      const t0 = performance.now();
      await Promise.all(clients.map(async (c) => batchCall.push(await timed(() => call(c)))));
      batchWall.push(performance.now() - t0);
      await sleep(1000);
      coldMs.push(await cold());
      for (let i = 0; i < STREAK; i++) streak.push(await timed(() => call(clients[0]!)));
      await sleep(1000);
      coldMs.push(await cold());
    }
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await endpoint.close();
    await engine.dispose();
  }
  const coldCpu = await cpuPerRun('cold');
  const pooledCpu = await cpuPerRun('pooled');

  const c50 = percentile(coldMs, 50);
  const ratio = (x: number, target: number) => `${(x / c50).toFixed(2)}× cold (target ≤ ${target}×: ${x / c50 <= target ? 'met' : 'not met'})`;
  const cpuRatio = pooledCpu.perContainer / coldCpu.perRun;
  return [
    `### Fan-out: \`print(1)\` over HTTP with default settings (pool ${settings.poolSize}, grows to ${settings.poolMax ?? 'default'}; concurrency ${settings.concurrency}), interleaved with a cold \`${info.name} run --rm\` (${info.name} ${info.version}, ${info.ociRuntime})`,
    '',
    '| path | p50 ms | p95 ms | vs cold p50 |',
    '|---|---|---|---|',
    `| cold hardened \`${info.name} run --rm\` (${coldMs.length} runs) | ${ms(c50)} | ${ms(percentile(coldMs, 95))} | 1× |`,
    `| batch of ${BATCH} at once: the whole batch (${ROUNDS} batches) | ${ms(percentile(batchWall, 50))} | ${ms(percentile(batchWall, 95))} | ${ratio(percentile(batchWall, 50), 0.5)} |`,
    `| batch of ${BATCH} at once: each call (${batchCall.length}) | ${ms(percentile(batchCall, 50))} | ${ms(percentile(batchCall, 95))} | |`,
    `| back to back (${streak.length} calls, ${STREAK} per round) | ${ms(percentile(streak, 50))} | ${ms(percentile(streak, 95))} | p95 ${ratio(percentile(streak, 95), 0.25)} |`,
    '',
    `Host CPU per run (whole process tree: runtime CLI, conmon, runc, containers, Node; ${CPU_RUNS} runs each side): ` +
      `bare cold run ${ms(coldCpu.perRun)} ms; pooled run, one container's life (start, agent, run, clean-up) plus Node's share, ${ms(pooledCpu.perContainer)} ms = ` +
      `**${cpuRatio.toFixed(2)}×** (target ≤ 1.1×: ${cpuRatio <= 1.1 ? 'met' : 'not met'}). Over this short phase, which ends by removing the containers a batch ` +
      `grew the pool by, ${ms(pooledCpu.perRun)} ms per run.`,
  ].join('\n');
}
