// Host memory under frame floods: code that finds the agent's frame writer through `gc` and writes one
// frame kind (rpc, file, display, imports) in a loop, run after run for 10 s, against an engine in its own
// process whose resident memory is read from outside every 20 ms. Baseline: 10 s of ordinary runs, with
// the same engine, interleaved with each flood (A B A C ...), for BENCH_FLOOD_ROUNDS rounds. Target: each
// flood grows host RSS by less than 150 MB, and it comes back after.
import { FloodHost, type RssFigures } from '../integration/fixtures/flood-host.js';
import { FLOOD_KINDS, type FloodKind } from '../integration/fixtures/floods.js';

const ROUNDS = Number(process.env.BENCH_FLOOD_ROUNDS ?? 2);
const SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 10);
const MiB = 1024 * 1024;
const m = (n: number) => (n / MiB).toFixed(0);

export async function benchFloods(): Promise<string> {
  const host = new FloodHost({ ...process.env, SANDBAR_IMAGE: process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test' });
  const rows: string[] = [];
  try {
    await host.ready;
    await host.warm(4);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const kind of FLOOD_KINDS) {
        for (const what of ['none', kind] as (FloodKind | 'none')[]) {
          const { outcome, rss } = await host.flood(what, SECONDS);
          const ended = Object.entries(outcome.reasons).map(([reason, n]) => `${n} ${reason}`).join(', ');
          rows.push(row(round, what === 'none' ? `baseline (before ${kind})` : kind, outcome.runs, ended, rss));
          console.error(`[floods] round ${round} ${what}: ${outcome.runs} runs (${ended}); RSS ${m(rss.before)} → ${m(rss.peak)} → ${m(rss.after)} MiB`);
        }
      }
    }
  } finally {
    await host.stop();
  }
  return [
    `### Host memory under frame floods (${SECONDS} s each, engine in its own process, RSS read from outside every 20 ms)`,
    '',
    '| round | flood | runs | how they ended | RSS before (MiB) | peak (MiB) | after (MiB) | peak − before (MiB) |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function row(round: number, label: string, runs: number, ended: string, rss: RssFigures): string {
  return `| ${round} | ${label} | ${runs} | ${ended} | ${m(rss.before)} | ${m(rss.peak)} | ${m(rss.after)} | ${m(rss.peak - rss.before)} |`;
}
