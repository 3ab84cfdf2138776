// Proxy overhead: one proxied call (sandbox → host → server-everything `echo` → sandbox), p50 over 200
// calls timed inside the sandbox, against a direct SDK client calling the same server from the host, and
// against the bare sandbox ↔ host channel with nothing behind it.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ServerManager } from '../../electron/proxy/server-manager.js';
import { ContainerRuntime } from '../../electron/sandbox/container-runtime.js';
import { Engine } from '../../electron/sandbox/engine.js';
import { DEFAULT_ENGINE_CONFIG } from '../../electron/settings/env-config.js';
import { ms, percentile } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const EVERYTHING = path.resolve('node_modules/.bin/mcp-server-everything');

export async function benchProxy(): Promise<string> {
  const engine = new Engine(new ContainerRuntime({ env: process.env, platform: process.platform }), { ...DEFAULT_ENGINE_CONFIG, image: IMAGE, poolSize: 1 });
  await engine.start();
  const manager = new ServerManager({ startTimeoutMs: 15_000, callTimeoutMs: 60_000, version: 'bench', policy: () => 'allow', publish: () => {} });
  manager.setDiscovery({
    servers: [{ name: 'everything', source: 'bench', transport: 'stdio', command: EVERYTHING, args: ['stdio'], env: {}, description: '' }],
    problems: [],
    skipped: [],
  });
  const mcp = await manager.prepare(['everything']);
  const code = `
import time, json
times = []
for i in range(${CALLS + 10}):
    start = time.perf_counter()
    await mcp_everything.echo(message="ping")
    times.append((time.perf_counter() - start) * 1000)
print(json.dumps(times[10:]))
`;
  const result = await engine.submit({ code, servers: ['everything'], context: { mcp }, timeoutSec: 120 }, { rpc: manager.rpcFor(['everything']) }).result;
  if (result.exitReason !== 'success') throw new Error(`proxy bench failed: ${result.stderr}`);
  const proxied = JSON.parse(result.stdout) as number[];

  // The bare channel: the same loop against a host handler that answers at once, no MCP server behind it.
  const bare = await engine.submit(
    { code: code.replace('await mcp_everything.echo(message="ping")', 'await _sandbar.rpc({"type": "ping"})').replace('import time, json', 'import time, json, _sandbar'), timeoutSec: 120 },
    { rpc: async () => ({ pong: true }) },
  ).result;
  if (bare.exitReason !== 'success') throw new Error(`channel bench failed: ${bare.stderr}`);
  const channel = JSON.parse(bare.stdout) as number[];

  const direct = new Client({ name: 'bench', version: '1' });
  await direct.connect(new StdioClientTransport({ command: EVERYTHING, args: ['stdio'], stderr: 'ignore' }));
  const directTimes: number[] = [];
  for (let i = 0; i < CALLS + 10; i++) {
    const start = performance.now();
    await direct.callTool({ name: 'echo', arguments: { message: 'ping' } });
    if (i >= 10) directTimes.push(performance.now() - start);
  }
  await direct.close();
  await manager.dispose();
  await engine.dispose();
  const added = percentile(proxied, 50) - percentile(directTimes, 50);
  return [
    `### Proxy: one \`echo\` call to server-everything, ${CALLS} calls each (after 10 warm-up calls)`,
    '',
    '| path | p50 ms | p95 ms |',
    '|---|---|---|',
    `| sandbox → host proxy → server → sandbox (timed in Python) | ${ms(percentile(proxied, 50))} | ${ms(percentile(proxied, 95))} |`,
    `| direct SDK client on the host → server | ${ms(percentile(directTimes, 50))} | ${ms(percentile(directTimes, 95))} |`,
    `| bare sandbox ↔ host RPC round trip (no server behind it) | ${ms(percentile(channel, 50))} | ${ms(percentile(channel, 95))} |`,
    '',
    `The proxy adds **${ms(added)} ms** at p50 (target: under 1 ms); the container's stdio channel alone accounts for ${ms(percentile(channel, 50))} ms of it.`,
  ].join('\n');
}
