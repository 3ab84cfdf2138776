// A pandas + Matplotlib plot, the most common thing agents run: through MCP (real HTTP server, SDK client,
// warm pool with the default preloads, after two runs taught it what to preload) vs a cold `podman run` of the same snippet with the same flags
// (same seccomp profile and limits), interleaved A B A B in one run. Targets: p50 ≤ 150 ms through MCP and
// ≥ 10× faster than the cold run. Then CPU per run of a preloaded pool vs a bare one (preload: []).
import { benchRuns } from './bench-runs.js';
import { CliBackend } from '../../electron/sandbox/cli/cli-backend.js';
import { newOwner } from '../../electron/sandbox/backend.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadOrCreateToken } from '../../electron/http/token-store.js';
import { createLogger } from '../../electron/logger.js';
import { HttpEndpoint } from '../../electron/mcp/http-endpoint.js';
import { createMcpServer } from '../../electron/mcp/server-factory.js';
import { ServerManager } from '../../electron/proxy/server-manager.js';
import { BOOTSTRAP_SOURCE } from '../../electron/sandbox/agent/bootstrap.js';
import { ContainerRuntime } from '../../electron/sandbox/cli/container-runtime.js';
import { Engine, type EngineConfig } from '../../electron/sandbox/engine.js';
import { DEFAULT_ENGINE_CONFIG } from '../../electron/sandbox/engine-config.js';
import { DEFAULT_SETTINGS } from '../../shared/settings.js';
import { ms, percentile, sleep, timed } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const RUNS = Number(process.env.BENCH_PLOT_RUNS ?? 12);
const CPU_RUNS = Number(process.env.BENCH_PLOT_CPU_RUNS ?? 6);
const CPU_BLOCKS = Number(process.env.BENCH_PLOT_CPU_BLOCKS ?? 2);

export const PLOT_SNIPPET = `import pandas as pd
import matplotlib.pyplot as plt
df = pd.DataFrame({'month': range(1, 13), 'sales': [3, 5, 4, 6, 8, 7, 9, 11, 10, 12, 14, 13]})
df.plot(x='month', y='sales', title='Sales')
plt.show()
print(df['sales'].sum())
`;

const quietLog = createLogger('bench', { SANDBAR_LOG_LEVEL: 'error' });

function newEngine(config: Partial<EngineConfig>, fontCacheDir: string): Engine {
  const runtime = new ContainerRuntime({ env: process.env, platform: process.platform });
  return new Engine(new CliBackend(runtime, newOwner()), { ...DEFAULT_ENGINE_CONFIG, image: IMAGE, poolSize: 2, ...config }, { fontCacheDir });
}

async function untilReady(engine: Engine, size: number): Promise<void> {
  const end = Date.now() + 120_000;
  while (engine.snapshot().pool.ready < size || engine.snapshot().pool.preloading) {
    if (Date.now() > end) throw new Error(`the pool did not fill: ${engine.snapshot().pool.lastError ?? ''}`);
    await sleep(100);
  }
}

/** The same argv the engine starts a sandbox with, but running the snippet directly instead of the agent. */
async function coldArgs(engine: Engine): Promise<{ bin: string; args: string[] }> {
  const args = await engine.backend.describe(engine.spec(), `sandbar-bench-cold-${process.pid}`);
  const at = args.lastIndexOf(BOOTSTRAP_SOURCE);
  if (at === -1) throw new Error('the sandbox argv has no bootstrap to replace');
  const info = await new ContainerRuntime({ env: process.env, platform: process.platform }).resolve();
  return { bin: info.path, args: [...args.slice(0, at), PLOT_SNIPPET, ...args.slice(at + 1)] };
}

function runCold(bin: string, args: string[], name: string): Promise<void> {
  const named = args.map((a) => (a.startsWith('sandbar-bench-cold-') ? name : a));
  return new Promise((resolve, reject) => {
    const child = execFile(bin, named, { maxBuffer: 16 << 20 }, (err, stdout) => {
      if (err) reject(new Error(`cold run failed: ${err.message}`));
      else if (stdout.trim() !== '102') reject(new Error(`cold run printed ${JSON.stringify(stdout)}`));
      else resolve();
    });
    child.stdin?.end();
  });
}

/** Two runs of the workload first: with preload: null the pool preloads what the runs import. */
async function learn(engine: Engine, code: string): Promise<void> {
  for (let i = 0; i < 2; i++) {
    await untilReady(engine, 2);
    const r = await engine.submit({ code }).result;
    if (r.exitReason !== 'success') throw new Error(`bench run failed: ${r.exitReason} ${r.stderr}`);
  }
  await untilReady(engine, 2);
  await sleep(1000);
}

/** Appended to the measured code: the sandbox process's own CPU since it started (boot, preloads, code). */
const RUSAGE = "\nimport resource as _r\n_u = _r.getrusage(_r.RUSAGE_SELF)\nprint('cpu-ms', round((_u.ru_utime + _u.ru_stime) * 1000))";

/**
 * CPU per run for one pool kind: the sandbox process's own user + system time over its whole life (agent
 * boot, preloads and warm-up while pooled, then the code), read by the code at its end. Per process, so
 * other work on the machine does not blur it; the runtime's own cost (podman, conmon) is the same for both.
 */
async function cpuBlock(preload: readonly string[] | null, code: string, fontCacheDir: string): Promise<number[]> {
  const engine = newEngine({ preload, poolSize: 2, concurrency: 1 }, fontCacheDir);
  await engine.start();
  await learn(engine, code);
  const cpu: number[] = [];
  for (let i = 0; i < CPU_RUNS; i++) {
    await untilReady(engine, 2);
    const r = await engine.submit({ code: code + RUSAGE }).result;
    if (r.exitReason !== 'success') throw new Error(`bench run failed: ${r.exitReason} ${r.stderr}`);
    cpu.push(Number(/cpu-ms (\d+)/.exec(r.stdout)?.[1]));
  }
  await engine.dispose();
  return cpu;
}

export async function benchPlot(): Promise<string> {
  const fontCacheDir = path.join(mkdtempSync(path.join(tmpdir(), 'sandbar-bench-plot-')), 'image-cache');
  const engine = newEngine({ preload: null }, fontCacheDir);
  await engine.start();
  const { token } = loadOrCreateToken(mkdtempSync(path.join(tmpdir(), 'sandbar-bench-')));
  const settings = { ...DEFAULT_SETTINGS, image: IMAGE };
  const servers = new ServerManager({ startTimeoutMs: 15_000, callTimeoutMs: 60_000, version: 'bench', policy: () => 'allow', publish: () => {} });
  const endpoint = new HttpEndpoint({
    port: 0,
    token: () => token,
    createServer: () => createMcpServer({ runs: benchRuns(engine, () => settings, servers), settings: () => settings, log: quietLog, version: 'bench', transport: 'http' }),
    log: quietLog,
  });
  await endpoint.start();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  await learn(engine, PLOT_SNIPPET);
  await sleep(2000);
  const cold = await coldArgs(engine);

  const viaMcp: number[] = [];
  const coldRun: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    viaMcp.push(await timed(async () => {
      const r = await client.callTool({ name: 'run_python', arguments: { code: PLOT_SNIPPET } });
      if (r.isError) throw new Error(JSON.stringify(r).slice(0, 500));
    }));
    // The pool refills in the background; the next MCP call must find it full, as a paced agent would.
    await untilReady(engine, 2);
    await sleep(1000);
    coldRun.push(await timed(() => runCold(cold.bin, cold.args, `sandbar-bench-cold-${process.pid}-${i}`)));
    await sleep(1000);
  }
  // One run's artifacts, to show the figure really came back.
  const sample = await engine.submit({ code: PLOT_SNIPPET }).result;
  await client.close();
  await endpoint.close();
  await engine.dispose();

  const pools = { default: null, bare: [], eager: ['numpy', 'pandas', 'matplotlib.pyplot'] } as const;
  const cpu = { default: { plot: [] as number[], print: [] as number[] }, bare: { plot: [] as number[], print: [] as number[] }, eager: { plot: [] as number[], print: [] as number[] } };
  for (let i = 0; i < CPU_BLOCKS; i++) {
    for (const [what, code] of [['plot', PLOT_SNIPPET], ['print', 'print(1)']] as const) {
      for (const pool of ['default', 'bare', 'eager'] as const) cpu[pool][what].push(...(await cpuBlock(pools[pool], code, fontCacheDir)));
    }
  }
  rmSync(path.dirname(fontCacheDir), { recursive: true, force: true });
  const mcpP50 = percentile(viaMcp, 50);
  const coldP50 = percentile(coldRun, 50);
  const figure = sample.artifacts?.[0];
  return [
    `### Plot: pandas + Matplotlib through MCP (warm, preloaded pool of 2) vs a cold \`podman run\` with the same flags (${RUNS} each, A B A B)`,
    '',
    '| path | p50 ms | p95 ms |',
    '|---|---|---|',
    `| SDK client → HTTP → engine → preloaded pool (figure returned) | ${ms(mcpP50)} | ${ms(percentile(viaMcp, 95))} |`,
    `| cold \`podman run\` of the snippet, same flags and seccomp profile | ${ms(coldP50)} | ${ms(percentile(coldRun, 95))} |`,
    '',
    `MCP p50 ${ms(mcpP50)} ms (target ≤ 150 ms); ${(coldP50 / mcpP50).toFixed(1)}× faster than the cold run (target ≥ 10×). ` +
      `Returned: ${figure ? `${figure.name} ${figure.width}×${figure.height}, ${figure.size} bytes` : 'no figure (!)'}.`,
    '',
    `CPU per run: the sandbox process's user + system time over its whole life (boot, preloads and warm-up while pooled, the code), ` +
      `p50 of ${CPU_BLOCKS} blocks × ${CPU_RUNS} runs per pool kind, interleaved, after two runs of the same workload:`,
    '',
    '| pool | plot snippet | `print(1)` |',
    '|---|---|---|',
    `| default (preload: null): preloads (and their warm-up) for what the runs import | ${ms(percentile(cpu.default.plot, 50))} ms | ${ms(percentile(cpu.default.print, 50))} ms |`,
    `| bare (preload: []) | ${ms(percentile(cpu.bare.plot, 50))} ms | ${ms(percentile(cpu.bare.print, 50))} ms |`,
    `| eager (preload: numpy, pandas, matplotlib.pyplot, whatever the runs do) | ${ms(percentile(cpu.eager.plot, 50))} ms | ${ms(percentile(cpu.eager.print, 50))} ms |`,
    '',
    `Load average during the run: ${loadavg().map((n) => n.toFixed(1)).join(', ')} (2 cores; other work on the machine slows wall times, not CPU times).`,
  ].join('\n');
}
