// Checkpoints (issue 28): a call that steps back to `<id>@<n>` (wake checkpoint n, end the later call's
// checkpoint, copy /workspace back, fork n again, run) against a plain call in the same session, both
// `print(1)` over HTTP with the SDK client, alternating call by call (A B A B) on a quiet machine.
// Target: a call at `@n` within 1.5 × a plain session call + 30 ms at p50.
import { PAUSE_MS, RUNS, sessionBench } from './sessions.bench.js';
import { ms, percentile, sleep, timed } from './stats.js';

export async function benchCheckpoints(): Promise<string> {
  const { call, quiet, close } = await sessionBench();
  const plain: number[] = [];
  const back: number[] = [];
  try {
    const opened = await call({ session: 'new', code: 'import os\nx = 0\nopen("/workspace/data.txt", "w").write("x" * 100_000)' });
    const id = /^session: ([0-9a-f]{32})/.exec((opened.content as { text: string }[])[0]!.text)![1]!;
    await sleep(PAUSE_MS);
    await call({ session: id }); // warm-up: call 2
    for (let i = 0; i < RUNS; i++) {
      await quiet();
      plain.push(await timed(() => call({ session: id, code: 'x += 1' }))); // call 3
      await quiet();
      back.push(await timed(() => call({ session: `${id}@2`, code: 'x += 1' }))); // call 3 again
    }
  } finally {
    await close();
  }
  const a = percentile(plain, 50);
  const b = percentile(back, 50);
  const target = 1.5 * a + 30;
  return [
    `### Checkpoints: a session call at \`<id>@<n>\` vs a plain session call, over HTTP with the SDK client (${RUNS} each, interleaved A B A B, each ≥ ${PAUSE_MS} ms after the last and with the pool refilled; 100 kB in /workspace)`,
    '',
    '| path | p50 ms | p95 ms |',
    '|---|---|---|',
    `| A: plain session call (resume, run, checkpoint, pause) | ${ms(a)} | ${ms(percentile(plain, 95))} |`,
    `| B: call at @2 (resume, wake checkpoint 2, end the later one, restore /workspace, fork 2 again, run, checkpoint, pause) | ${ms(b)} | ${ms(percentile(back, 95))} |`,
    '',
    `B / A at p50: **${(b / a).toFixed(2)}×**; target: B ≤ 1.5 × A + 30 ms = ${ms(target)} ms, so ${b <= target ? 'met' : 'NOT met'} (B = ${ms(b)} ms).`,
  ].join('\n');
}
