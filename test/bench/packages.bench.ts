// Packages: the first run of a new set (fetch through the proxy, resolve and install in helper containers),
// then runs that reuse the layer against plain runs, interleaved (A B A B) through the MCP handler with
// the same warm pool. Target: reuse costs at most 100 ms over a plain run. A local PEP 503 index serves
// wheels built here and pip's own wheel (python3-pip-whl), as in the tests.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCore } from '../../electron/core.js';
import { createLogger } from '../../electron/logger.js';
import { RunOwners } from '../../electron/mcp/run-owners.js';
import { mcpDeps } from '../../electron/mcp/mcp-deps.js';
import { createMcpServer } from '../../electron/mcp/server-factory.js';
import { buildWheel, FixtureIndex, hostPipWheel } from '../integration/packages/package-fixtures.js';
import { ms, percentile, sleep, timed } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

export async function benchPackages(): Promise<string> {
  const pip = hostPipWheel();
  if (!pip) throw new Error('pip\'s wheel is missing from /usr/share/python-wheels: install python3-pip-whl');
  const index = new FixtureIndex();
  index.add('pip', pip);
  index.add('tinydep', await buildWheel('tinydep', '1.0', { 'tinydep.py': 'VALUE = 41\n' }));
  index.add('tinypkg', await buildWheel('tinypkg', '2.0', { 'tinypkg.py': 'import tinydep\ndef answer():\n    return tinydep.VALUE + 1\n' }, ['tinydep']));
  await index.start();
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-bench-packages-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ image: IMAGE, poolSize: 2 }));
  const core = createCore({ env: { ...process.env, SANDBAR_HOME: home, SANDBAR_PACKAGE_INDEX: index.url, SANDBAR_LOG_LEVEL: 'error' } });
  await core.start();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(mcpDeps({ runs: core.runs, settings: () => core.settings, artifacts: core.history, owners: new RunOwners() }, 'stdio', createLogger('bench', { SANDBAR_LOG_LEVEL: 'error' }))).connect(serverSide);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(clientSide);
  const call = async (args: Record<string, unknown>) => {
    const r = await client.callTool({ name: 'run_python', arguments: args });
    if (r.isError) throw new Error(JSON.stringify(r.content));
  };
  try {
    await sleep(3000); // the pool fills
    const first = await timed(() => call({ code: 'import tinypkg; print(tinypkg.answer())', packages: ['tinypkg'] }));
    const downloads = index.downloads().length;
    await sleep(1000);
    const plain: number[] = [];
    const reused: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      plain.push(await timed(() => call({ code: 'print(42)' })));
      await sleep(500);
      reused.push(await timed(() => call({ code: 'import tinypkg; print(tinypkg.answer())', packages: ['tinypkg'] })));
      await sleep(500);
    }
    const extra = percentile(reused, 50) - percentile(plain, 50);
    return [
      `### Packages: a two-wheel set (a package and its dependency) through the MCP handler, pool of 2 (${RUNS} each, interleaved A B A B, 0.5 s apart)`,
      '',
      '| | p50 ms | p95 ms |',
      '|---|---|---|',
      `| first run of the set: fetch ${downloads} wheels (pip's included), resolve and install in helper containers, then run | ${ms(first)} | — |`,
      `| A: plain run, \`print(42)\` | ${ms(percentile(plain, 50))} | ${ms(percentile(plain, 95))} |`,
      `| B: run reusing the layer, importing the package | ${ms(percentile(reused, 50))} | ${ms(percentile(reused, 95))} |`,
      '',
      `Reusing a layer costs **${ms(extra)} ms** over a plain run at p50 (target: at most 100 ms); the index saw ${index.downloads().length - downloads} downloads after the first run.`,
    ].join('\n');
  } finally {
    await client.close();
    await core.dispose();
    await index.stop();
  }
}
