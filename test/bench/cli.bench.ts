// The `sandbar` command's own cost, each pair interleaved (A B A B) in one run with the same flags:
// `--help` against `node -e 0` (target ≤ 3×), and a cold `sandbar run` of print(1) (no instance running)
// against the floor of any Node command that runs code this way: Node started, a bare hardened `podman run`
// with Sandbar's flags and seccomp profile, the agent's boot, the output (cold-floor.mjs; target ≤ 1.6×).
// The bare runtime alone is measured beside them.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { coldRun } from './cold-run.js';
import { ms, percentile, timed } from './stats.js';

const run = promisify(execFile);
const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const CLI = path.resolve('dist/electron/cli.js');
const FLOOR = path.resolve('test/bench/cold-floor.mjs');
const HELP_RUNS = Number(process.env.BENCH_CLI_HELP_RUNS ?? 20);
const RUN_RUNS = Number(process.env.BENCH_CLI_RUN_RUNS ?? 10);

/** p50 of each side, measured alternately so drift on a busy machine hits both alike. */
async function interleaved(runs: number, a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number, number]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < runs; i++) {
    ta.push(await timed(a));
    tb.push(await timed(b));
  }
  return [percentile(ta, 50), percentile(tb, 50)];
}

export async function benchCli(): Promise<string> {
  const [node, help] = await interleaved(HELP_RUNS, () => run(process.execPath, ['-e', '0']), () => run(process.execPath, [CLI, '--help']));

  const bare = await coldRun(IMAGE, 'cli');
  const info = { name: bare.runtime, path: bare.runtimePath };
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-bench-cli-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ image: IMAGE }));
  const file = path.join(home, 'one.py');
  writeFileSync(file, 'print(1)\n');
  const floorArgs = path.join(home, 'floor-args.json');
  const podmanOnly: number[] = [];
  const floor: number[] = [];
  const cold: number[] = [];
  // Three sides, interleaved A B C A B C: the bare runtime, the floor (Node + the agent, nothing else),
  // and `sandbar run`. The floor shows how much of the gap any Node command must pay.
  for (let n = 0; n < RUN_RUNS; n++) {
    podmanOnly.push(await timed(() => bare.once('print(1)')));
    writeFileSync(floorArgs, JSON.stringify(bare.args()));
    floor.push(await timed(() => run(process.execPath, [FLOOR, info.path, floorArgs, 'print(1)'])));
    cold.push(await timed(() => run(process.execPath, [CLI, 'run', file], { env: { ...process.env, SANDBAR_HOME: home } })));
  }
  const [podman, nodeFloor, sandbar] = [podmanOnly, floor, cold].map((t) => percentile(t, 50)) as [number, number, number];
  // Joining a running instance of the same home (its warm pool, its history): target ≤ 0.3 s.
  const joinedHome = mkdtempSync(path.join(tmpdir(), 'sandbar-bench-cli-joined-'));
  writeFileSync(path.join(joinedHome, 'settings.json'), JSON.stringify({ image: IMAGE, httpPort: 0, poolSize: 2 }));
  const serve = spawn(process.execPath, [CLI, 'serve'], { env: { ...process.env, SANDBAR_HOME: joinedHome }, stdio: 'ignore' });
  const joined: number[] = [];
  try {
    for (let t = 0; t < 100 && !existsSync(path.join(joinedHome, 'instance.json')); t++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 3000)); // the pool fills
    for (let n = 0; n < RUN_RUNS; n++) {
      joined.push(await timed(() => run(process.execPath, [CLI, 'run', file], { env: { ...process.env, SANDBAR_HOME: joinedHome } })));
      await new Promise((r) => setTimeout(r, 300)); // the pool refills between runs
    }
  } finally {
    serve.kill('SIGTERM');
  }
  return [
    '### CLI (interleaved A B A B, p50)',
    '',
    '| | A | B | B / A | target |',
    '|---|---|---|---|---|',
    `| \`node -e 0\` vs \`sandbar --help\` (${HELP_RUNS} each) | ${ms(node)} ms | ${ms(help)} ms | ${(help / node).toFixed(2)}× | ≤ 3× |`,
    `| the floor (Node + bare \`${info.name} run\` with the agent, nothing else) vs cold \`sandbar run\` of print(1), no instance (${RUN_RUNS} each) | ${ms(nodeFloor)} ms | ${ms(sandbar)} ms | **${(sandbar / nodeFloor).toFixed(2)}×** | ≤ 1.6× (${sandbar / nodeFloor <= 1.6 ? 'met' : 'not met'}) |`,
    `| bare \`${info.name} run --rm\` (Sandbar's flags and seccomp) vs the same cold \`sandbar run\` (interleaved with both above) | ${ms(podman)} ms | ${ms(sandbar)} ms | ${(sandbar / podman).toFixed(2)}× | |`,
    '',
    `\`sandbar run\` of print(1) joining a running instance (${RUN_RUNS} runs, 0.3 s apart): p50 ${ms(percentile(joined, 50))} ms (target ≤ 300 ms).`,
  ].join('\n');
}
