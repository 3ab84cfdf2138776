// Sandbox engine benchmark (issue: warm pool). Interleaved run by run (A B C A B C) on this machine:
// a cold `podman run` per execution with Sandbar's flags and seccomp profile (what the reference does),
// Sandbar's engine with the warm pool, and host `python3 -c` (the floor). Then burst, throughput and
// memory-growth figures (one path each, no baseline).
import { CliBackend } from '../../electron/sandbox/cli/cli-backend.js';
import { newOwner } from '../../electron/sandbox/backend.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildContainerArgs } from '../../electron/sandbox/cli/container-args.js';
import { ContainerRuntime } from '../../electron/sandbox/cli/container-runtime.js';
import { Engine } from '../../electron/sandbox/engine.js';
import { seccompProfileFor } from '../../electron/sandbox/seccomp-profile.js';
import { DEFAULT_ENGINE_CONFIG } from '../../electron/sandbox/engine-config.js';
import { ms, percentile, sleep, timed } from './stats.js';

const run = promisify(execFile);
const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PAUSE_MS = 500;
const MEMORY_RUNS = Number(process.env.BENCH_MEMORY_RUNS ?? 1000);

export async function benchEngine(): Promise<string> {
  const runtime = new ContainerRuntime({ env: process.env, platform: process.platform });
  const info = await runtime.resolve();
  const engine = new Engine(new CliBackend(runtime, newOwner()), { ...DEFAULT_ENGINE_CONFIG, image: IMAGE, poolSize: 2, concurrency: 4 });
  await engine.start();
  const exec = async (code: string) => {
    const r = await engine.submit({ code }).result;
    if (r.exitReason !== 'success') throw new Error(`bench run failed: ${r.exitReason} ${r.message ?? ''} ${r.stderr}`);
  };
  await sleep(3000); // let the pool fill
  await exec('print(1)');

  // The reference's path: one cold container per execution, same flags (Sandbar's seccomp profile and
  // OCI runtime included), code on the command line.
  const seccompProfile = seccompProfileFor(DEFAULT_ENGINE_CONFIG.seccomp);
  if (!seccompProfile) throw new Error(`the engine's default seccomp mode is ${DEFAULT_ENGINE_CONFIG.seccomp}: the cold baseline would not match Sandbar's profile`);
  const coldArgs = buildContainerArgs(DEFAULT_ENGINE_CONFIG.limits, {
    runtime: info.name, image: IMAGE, name: 'x', owner: engine.owner, ulimits: info.ulimits,
    ...(seccompProfile ? { seccompProfile } : {}),
    ...(info.ociRuntimeOverride ? { ociRuntime: info.ociRuntimeOverride } : {}),
  });
  const cold = async (i: number) => {
    const args = [...coldArgs];
    args[args.indexOf('--name') + 1] = `sandbar-bench-cold-${process.pid}-${i}`;
    args.splice(args.length - 1, 1, 'print(1)');
    await run(info.path, args);
  };

  // The interpreter itself, not a version-manager shim that adds a second of shell work per call.
  const python = (await run('python3', ['-c', 'import sys; print(sys.executable)'])).stdout.trim();

  const series: Record<string, number[]> = { cold: [], pooled: [], host: [] };
  for (let i = 0; i < RUNS; i++) {
    // Interleaved, so each path sees the same machine conditions.
    series.cold!.push(await timed(() => cold(i)));
    await sleep(PAUSE_MS);
    series.pooled!.push(await timed(() => exec('print(1)')));
    await sleep(PAUSE_MS);
    series.host!.push(await timed(() => run(python, ['-c', 'print(1)'])));
    await sleep(PAUSE_MS);
  }

  const burst: number[] = [];
  for (let i = 0; i < RUNS; i++) burst.push(await timed(() => exec('print(1)')));

  await sleep(3000);
  const total = 60;
  const throughputMs = await timed(() => Promise.all(Array.from({ length: total }, () => exec('print(1)'))));

  const heap: { runs: number; rssMb: number; heapMb: number }[] = [];
  const sample = (runs: number) => {
    global.gc?.();
    const m = process.memoryUsage();
    heap.push({ runs, rssMb: m.rss / 2 ** 20, heapMb: m.heapUsed / 2 ** 20 });
  };
  sample(0);
  for (let done = 0; done < MEMORY_RUNS; ) {
    // 50 at a time: the waiting runs stay under the default queue limit (64), which refuses the rest.
    const batch = Math.min(50, MEMORY_RUNS - done);
    await Promise.all(Array.from({ length: batch }, () => exec('print(1)')));
    done += batch;
    if (done % 250 === 0 || done === MEMORY_RUNS) sample(done);
  }
  await engine.dispose();

  const row = (label: string, v: number[]) => `| ${label} | ${ms(percentile(v, 50))} | ${ms(percentile(v, 95))} |`;
  const p50 = (k: string) => percentile(series[k]!, 50);
  const p95 = (k: string) => percentile(series[k]!, 95);
  return [
    `### Engine: \`print(1)\`, ${RUNS} runs each, ${PAUSE_MS} ms apart, interleaved A B C A B C (${info.name} ${info.version}, ${info.ociRuntime})`,
    '',
    '| path | p50 ms | p95 ms |',
    '|---|---|---|',
    row(`A: cold \`${info.name} run\` per execution, Sandbar's flags and seccomp profile (reference)`, series.cold!),
    row('B: Sandbar engine, warm pool of 2', series.pooled!),
    row('C: host `python3 -c` (floor)', series.host!),
    '',
    `Ratios at p50: cold / pooled = **${(p50('cold') / p50('pooled')).toFixed(1)}×** (target: at least 10×); pooled / host floor = ${(p50('pooled') / p50('host')).toFixed(2)}×. ` +
      `At p95: cold / pooled = ${(p95('cold') / p95('pooled')).toFixed(1)}×.`,
    '',
    `Burst, ${RUNS} runs back to back with no pause (refill competes with the runs): p50 ${ms(percentile(burst, 50))} ms, p95 ${ms(percentile(burst, 95))} ms.`,
    '',
    `Sustained throughput, ${total} runs submitted at once, concurrency 4, pool 2: ${(total / (throughputMs / 1000)).toFixed(1)} runs/s.`,
    '',
    `Host process memory over ${MEMORY_RUNS} runs (after GC):`,
    '',
    '| runs | RSS MiB | heap used MiB |',
    '|---|---|---|',
    ...heap.map((h) => `| ${h.runs} | ${h.rssMb.toFixed(1)} | ${h.heapMb.toFixed(1)} |`),
  ].join('\n');
}
