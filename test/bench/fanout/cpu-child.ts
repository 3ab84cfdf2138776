// One side of the fan-out benchmark's CPU figure, run under cpu-tree.py (which counts the whole tree:
// the runtime CLI, conmon, runc, the containers). `cold N`: N bare hardened `podman run --rm` of print(1).
// `pooled N`: N runs through the engine with default settings (batches of 8, then back to back), its pool's
// refills and final clean-up included, and counts the containers it made. Marks the phase with SIGUSR1 to the wrapper; prints the Node
// process's own CPU in the phase and its reaped children's (the runtime CLI): the wrapper sees those only
// when this process exits.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { newOwner } from '../../../electron/sandbox/backend.js';
import { CliBackend } from '../../../electron/sandbox/cli/cli-backend.js';
import { ContainerRuntime } from '../../../electron/sandbox/cli/container-runtime.js';
import { Engine } from '../../../electron/sandbox/engine.js';
import { DEFAULT_ENGINE_CONFIG } from '../../../electron/sandbox/engine-config.js';
import { coldArgsFor } from './cold.js';

const run = promisify(execFile);
const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const [mode, count] = process.argv.slice(2);
const N = Number(count ?? 16);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mark = () => process.kill(process.ppid, 'SIGUSR1');
/** CPU (ms) of the children this process reaped (the runtime CLI): the wrapper sees it only when we exit. */
const reapedMs = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(')').at(-1)!.trim().split(/\s+/);
  return (Number(fields[13]) + Number(fields[14])) * 10; // cutime + cstime in USER_HZ (100) ticks
};

const runtime = new ContainerRuntime({ env: process.env, platform: process.platform });
const info = await runtime.resolve();
const backend = new CliBackend(runtime, newOwner());
// Containers made in the phase: a pool grown by a batch keeps some that no run of this short phase uses.
let made = 0;
const create = backend.create.bind(backend);
backend.create = (...args) => ((made += 1), create(...args));
const engine = new Engine(backend, { ...DEFAULT_ENGINE_CONFIG, image: IMAGE });
let own: NodeJS.CpuUsage;
let reaped0: number;
if (mode === 'cold') {
  const args = coldArgsFor(info, engine.owner, IMAGE);
  mark();
  own = process.cpuUsage();
  reaped0 = reapedMs();
  for (let i = 0; i < N; i++) await run(info.path, args(`sandbar-bench-cpu-${process.pid}-${i}`, 'print(1)'));
} else {
  await engine.start();
  await sleep(4000);
  mark();
  own = process.cpuUsage();
  reaped0 = reapedMs();
  // The pool's containers at the mark end in the phase, so all their CPU is counted there too.
  made = engine.snapshot().pool.ready + engine.snapshot().pool.starting;
  const exec = async () => {
    const r = await engine.submit({ code: 'print(1)' }).result;
    if (r.exitReason !== 'success') throw new Error(`bench run failed: ${r.exitReason} ${r.message ?? ''}`);
  };
  for (let done = 0; done < N; ) {
    const batch = Math.min(8, N - done);
    await Promise.all(Array.from({ length: batch }, exec));
    done += batch;
    await sleep(1000);
  }
  await engine.dispose();
}
await sleep(2000); // the runtime's own clean-up processes end
mark();
const d = process.cpuUsage(own);
console.log(JSON.stringify({ nodeMs: (d.user + d.system) / 1000 + reapedMs() - reaped0, containers: mode === 'cold' ? N : made }));
