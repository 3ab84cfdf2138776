// Proxy overhead: one proxied call (sandbox → host → server-everything `echo` → sandbox) timed inside the
// sandbox, against a direct SDK client calling the same server from the host, and against the bare
// sandbox ↔ host channel with nothing behind it. The three sides alternate in blocks (A B C A B C: a
// sandboxed run of proxied calls, the same number of direct calls, a sandboxed run on the bare channel),
// each block after its own warm-up calls, with the warm pool full again before every block.
import { CliBackend } from '../../electron/sandbox/cli/cli-backend.js';
import { newOwner } from '../../electron/sandbox/backend.js';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ServerManager } from '../../electron/proxy/server-manager.js';
import type { RpcHandler } from '../../electron/sandbox/run/execution.js';
import { ContainerRuntime } from '../../electron/sandbox/cli/container-runtime.js';
import { Engine } from '../../electron/sandbox/engine.js';
import { DEFAULT_ENGINE_CONFIG } from '../../electron/sandbox/engine-config.js';
import { ms, percentile, sleep } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const BLOCKS = Math.max(1, Math.min(CALLS, Number(process.env.BENCH_PROXY_BLOCKS ?? 10)));
const PER_BLOCK = Math.ceil(CALLS / BLOCKS);
/** Calls at the start of every block that are not counted (first-call costs on each side). */
const WARMUP = 10;
const EVERYTHING = path.resolve('node_modules/.bin/mcp-server-everything');

/** Python that makes WARMUP + PER_BLOCK calls of `call` and prints the counted times in ms as JSON. */
const loop = (imports: string, call: string) => `
import time, json${imports}
times = []
for i in range(${WARMUP + PER_BLOCK}):
    start = time.perf_counter()
    await ${call}
    times.append((time.perf_counter() - start) * 1000)
print(json.dumps(times[${WARMUP}:]))
`;

export async function benchProxy(): Promise<string> {
  const engine = new Engine(new CliBackend(new ContainerRuntime({ env: process.env, platform: process.platform }), newOwner()), { ...DEFAULT_ENGINE_CONFIG, image: IMAGE, poolSize: 1 });
  await engine.start();
  const manager = new ServerManager({ startTimeoutMs: 15_000, callTimeoutMs: 60_000, version: 'bench', policy: () => 'allow', publish: () => {} });
  manager.setDiscovery({
    servers: [{ name: 'everything', source: 'bench', transport: 'stdio', command: EVERYTHING, args: ['stdio'], env: {}, description: '' }],
    problems: [],
    skipped: [],
  });
  const direct = new Client({ name: 'bench', version: '1' });
  const proxied: number[] = [];
  const directTimes: number[] = [];
  const channel: number[] = [];
  try {
    const mcp = await manager.prepare(['everything']);
    await direct.connect(new StdioClientTransport({ command: EVERYTHING, args: ['stdio'], stderr: 'ignore' }));

    /** Waits until the pool's container is booted, so no container start competes with the next block. */
    const poolFull = async () => {
      const deadline = Date.now() + 60_000;
      while (engine.snapshot().pool.ready < 1) {
        if (Date.now() > deadline) throw new Error('the warm pool did not refill within 60 s');
        await sleep(100);
      }
    };
    const inSandbox = async (what: string, code: string, request: { servers?: string[]; context?: { mcp: typeof mcp } }, rpc: RpcHandler) => {
      await poolFull();
      const result = await engine.submit({ code, timeoutSec: 120, ...request }, { rpc }).result;
      if (result.exitReason !== 'success') throw new Error(`${what} bench failed: ${result.stderr}`);
      return JSON.parse(result.stdout) as number[];
    };
    const proxiedCode = loop('', 'mcp_everything.echo(message="ping")');
    // The bare channel: the same loop against a host handler that answers at once, no MCP server behind it.
    const bareCode = loop(', _sandbar', '_sandbar.rpc({"type": "ping"})');

    for (let b = 0; b < BLOCKS; b++) {
      proxied.push(...(await inSandbox('proxy', proxiedCode, { servers: ['everything'], context: { mcp } }, manager.rpcFor(['everything']))));
      await poolFull();
      for (let i = 0; i < WARMUP + PER_BLOCK; i++) {
        const start = performance.now();
        await direct.callTool({ name: 'echo', arguments: { message: 'ping' } });
        if (i >= WARMUP) directTimes.push(performance.now() - start);
      }
      channel.push(...(await inSandbox('channel', bareCode, {}, async () => ({ pong: true }))));
    }
  } finally {
    await direct.close();
    await manager.dispose();
    await engine.dispose();
  }
  const added = percentile(proxied, 50) - percentile(directTimes, 50);
  return [
    `### Proxy: one \`echo\` call to server-everything, ${proxied.length} calls each (${BLOCKS} blocks of ${PER_BLOCK}, interleaved A B C A B C, each block after ${WARMUP} warm-up calls)`,
    '',
    '| path | p50 ms | p95 ms |',
    '|---|---|---|',
    `| A: sandbox → host proxy → server → sandbox (timed in Python) | ${ms(percentile(proxied, 50))} | ${ms(percentile(proxied, 95))} |`,
    `| B: direct SDK client on the host → server | ${ms(percentile(directTimes, 50))} | ${ms(percentile(directTimes, 95))} |`,
    `| C: bare sandbox ↔ host RPC round trip (no server behind it) | ${ms(percentile(channel, 50))} | ${ms(percentile(channel, 95))} |`,
    '',
    `The proxy adds **${ms(added)} ms** at p50 (A − B; target: under 1 ms); the container's stdio channel alone (C) costs ${ms(percentile(channel, 50))} ms.`,
  ].join('\n');
}
