// Calls 0.3 s apart (3/s) against a pool of 2, with the pool's growth off (A: poolMax 2) and on (B: default), in
// alternating blocks (A B A B) on this machine. Target: p50 ≤ 30 ms for B. Host CPU per run (from
// /proc/stat, all processes: podman, conmon, the containers) shows the gain is not bought with idle burn.
import { CliBackend } from '../../electron/sandbox/cli/cli-backend.js';
import { newOwner } from '../../electron/sandbox/backend.js';
import { readFileSync } from 'node:fs';
import { ContainerRuntime } from '../../electron/sandbox/cli/container-runtime.js';
import { Engine } from '../../electron/sandbox/engine.js';
import { DEFAULT_ENGINE_CONFIG } from '../../electron/sandbox/engine-config.js';
import { ms, percentile, sleep, timed } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const CALLS = Number(process.env.BENCH_BURST_CALLS ?? 15);
const BLOCKS = Number(process.env.BENCH_BURST_BLOCKS ?? 2);
const GAP_MS = 300;

/** Busy jiffies of the whole machine (user + nice + system + irq + softirq + steal). */
function busyJiffies(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return cpu[0]! + cpu[1]! + cpu[2]! + cpu[5]! + cpu[6]! + cpu[7]!;
}

async function block(poolMax: number | null): Promise<{ latencies: number[]; cpuMsPerRun: number }> {
  const runtime = new ContainerRuntime({ env: process.env, platform: process.platform });
  const engine = new Engine(new CliBackend(runtime, newOwner()), { ...DEFAULT_ENGINE_CONFIG, image: IMAGE, poolSize: 2, poolMax, concurrency: 4 });
  await engine.start();
  await sleep(4000);
  const before = busyJiffies();
  const pending: Promise<number>[] = [];
  for (let i = 0; i < CALLS; i++) {
    pending.push(
      timed(async () => {
        const r = await engine.submit({ code: 'print(1)' }).result;
        if (r.exitReason !== 'success') throw new Error(`bench run failed: ${r.exitReason} ${r.message ?? ''}`);
      }),
    );
    await sleep(GAP_MS);
  }
  const latencies = await Promise.all(pending);
  const cpuMsPerRun = ((busyJiffies() - before) * 10) / CALLS; // USER_HZ is 100 on Linux
  await engine.dispose();
  return { latencies, cpuMsPerRun };
}

export async function benchBurst(): Promise<string> {
  const a: number[] = [];
  const b: number[] = [];
  const cpuA: number[] = [];
  const cpuB: number[] = [];
  for (let i = 0; i < BLOCKS; i++) {
    const off = await block(2);
    a.push(...off.latencies);
    cpuA.push(off.cpuMsPerRun);
    const on = await block(null);
    b.push(...on.latencies);
    cpuB.push(on.cpuMsPerRun);
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return [
    `### Burst: calls ${GAP_MS} ms apart, pool of 2 (${BLOCKS} blocks of ${CALLS} each, A B A B)`,
    '',
    '| | p50 | p95 | host CPU per run |',
    '|---|---|---|---|',
    `| A: fixed pool | ${ms(percentile(a, 50))} ms | ${ms(percentile(a, 95))} ms | ${ms(mean(cpuA))} ms |`,
    `| B: pool grows with demand | ${ms(percentile(b, 50))} ms | ${ms(percentile(b, 95))} ms | ${ms(mean(cpuB))} ms |`,
    '',
    `B / A at p50: ${(percentile(b, 50) / percentile(a, 50)).toFixed(2)}× (target: B p50 ≤ 30 ms).`,
  ].join('\n');
}
