// Panel History view against the real `sandbar serve` (100,000 seeded runs in a fresh SANDBAR_HOME, the
// control API over HTTP with the panel token, SQLite behind it) and, in the same run, against the same
// view with an in-memory API and no server (test/bench/panel-history's fake-backed harness) as the
// baseline. Each target has its own Chromium; every measured phase runs on one, then the other (real,
// in-memory, real, in-memory: each page load, each in-app open, each scrolling phase), so the machine's
// drift hits both alike. Reports both side by side and the ratio real / in-memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServe, type Served } from '../e2e/serve-process.js';
import { openPanelHistorySession, type FrameStats, type LoadAllStats, type PanelHistoryBenchOptions, type PanelHistorySession } from './panel-history/panel-history.bench.js';
import { seedHistory } from './panel-history/seed-history.js';
import { ms, percentile } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const RUNS = Number(process.env.BENCH_PANEL_HISTORY_RUNS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_PANEL_HISTORY_SAMPLES ?? 5);
const SCROLL_MS = Number(process.env.BENCH_PANEL_HISTORY_SCROLL_MS ?? 3000);
/** Time allowed per target for paging through the runs before the deep-scroll phases (keeps the bench ≈ 3 min). */
const LOAD_ALL_BUDGET_MS = Number(process.env.BENCH_PANEL_HISTORY_LOAD_MS ?? 20_000);

const log = (line: string) => {
  if (process.env.BENCH_VERBOSE) console.error(`  [panel-history] ${line}`);
};

interface Side {
  pageLoadMs: number[];
  mountToPaintMs: number[];
  inAppOpenMs: number[];
  firstRowElements: number;
  wheelFromTop: FrameStats & { rowsLoaded: number };
  loadAll: LoadAllStats;
  dragDeep: FrameStats;
  wheelDeep: FrameStats;
}

/** Runs `phase` on the real side, then on the in-memory side: one A B step. */
async function both<T>(real: PanelHistorySession, memory: PanelHistorySession, phase: (s: PanelHistorySession) => Promise<T>): Promise<[T, T]> {
  const a = await phase(real);
  const b = await phase(memory);
  return [a, b];
}

async function interleaved(real: PanelHistorySession, memory: PanelHistorySession): Promise<[Side, Side]> {
  await both(real, memory, (s) => s.warmUp());
  const loads: [Awaited<ReturnType<PanelHistorySession['pageLoad']>>[], Awaited<ReturnType<PanelHistorySession['pageLoad']>>[]] = [[], []];
  for (let i = 1; i <= SAMPLES; i++) (await both(real, memory, (s) => s.pageLoad(i))).forEach((v, k) => loads[k]!.push(v));
  const opens: [number[], number[]] = [[], []];
  for (let i = 0; i < SAMPLES; i++) (await both(real, memory, (s) => s.inAppOpen(i))).forEach((v, k) => opens[k]!.push(v));
  const wheelFromTop = await both(real, memory, (s) => s.wheelFromTop());
  const loadAll = await both(real, memory, (s) => s.loadAll());
  const dragDeep = await both(real, memory, (s) => s.dragDeep());
  const wheelDeep = await both(real, memory, (s) => s.wheelDeep());
  const side = (k: 0 | 1): Side => ({
    pageLoadMs: loads[k].map((l) => l.pageLoadMs),
    mountToPaintMs: loads[k].map((l) => l.mountToPaintMs),
    inAppOpenMs: opens[k],
    firstRowElements: loads[k].at(-1)?.firstRowElements ?? 0,
    wheelFromTop: wheelFromTop[k],
    loadAll: loadAll[k],
    dragDeep: dragDeep[k],
    wheelDeep: wheelDeep[k],
  });
  return [side(0), side(1)];
}

export async function benchPanelHistory(): Promise<string> {
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-bench-panel-history-'));
  const common: PanelHistoryBenchOptions = { rows: RUNS, samples: SAMPLES, scrollMs: SCROLL_MS, loadAllBudgetMs: LOAD_ALL_BUDGET_MS, log };
  let served: Served | null = null;
  const sessions: PanelHistorySession[] = [];
  try {
    const seeded = await seedHistory(home, RUNS);
    log(`seeded ${RUNS} runs in ${(seeded.ms / 1000).toFixed(1)} s`);
    served = await startServe({ image: IMAGE, settings: { image: IMAGE, poolSize: 0, httpPort: 0 }, home });
    const real = await openPanelHistorySession({ ...common, baseUrl: served.baseUrl, token: served.token });
    sessions.push(real);
    const memory = await openPanelHistorySession(common);
    sessions.push(memory);
    const [r, m] = await interleaved(real, memory);
    return toMarkdown(r, m, seeded.ms, real.viewport);
  } finally {
    for (const s of sessions) await s.close();
    await served?.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

const median = (v: number[]) => percentile(v, 50);
const ratio = (real: number, base: number) => (Number.isFinite(real) && Number.isFinite(base) && base > 0 ? `${(real / base).toFixed(2)}×` : '—');

function toMarkdown(real: Side, memory: Side, seedMs: number, viewport: { width: number; height: number }): string {
  const openRow = (label: string, r: number[], m: number[]) =>
    `| ${label} | ${ms(median(r))} / ${ms(percentile(r, 95))} / ${ms(Math.max(...r))} | ${ms(median(m))} / ${ms(percentile(m, 95))} / ${ms(Math.max(...m))} | ${ratio(median(r), median(m))} | ${ratio(percentile(r, 95), percentile(m, 95))} |`;
  const frameRow = (label: string, r: FrameStats, m: FrameStats) =>
    `| ${label} | ${ms(r.medianMs)} / ${ms(r.p95Ms)} / ${ms(r.maxMs)} | ${ms(m.medianMs)} / ${ms(m.p95Ms)} / ${ms(m.maxMs)} | ${ratio(r.medianMs, m.medianMs)} | ${ratio(r.p95Ms, m.p95Ms)} | ${ratio(r.maxMs, m.maxMs)} | ${r.over25Ms} / ${r.frames} | ${m.over25Ms} / ${m.frames} | ${r.longTasks} / ${m.longTasks} | ${r.maxRowElements} / ${m.maxRowElements} |`;
  const load = (r: Side) =>
    `${r.loadAll.rows.toLocaleString('en')} rows in ${(r.loadAll.ms / 1000).toFixed(1)} s${r.loadAll.complete ? '' : ' (budget reached)'}, a page median ${ms(r.loadAll.pageMedianMs)} ms, p95 ${ms(r.loadAll.pageP95Ms)} ms, max ${ms(r.loadAll.pageMaxMs)} ms`;
  const mostRows = (s: Side) => Math.max(s.wheelFromTop.maxRowElements, s.dragDeep.maxRowElements, s.wheelDeep.maxRowElements);
  return [
    `### Panel: History view, ${RUNS.toLocaleString('en')} runs: real \`sandbar serve\` vs in-memory API, interleaved per phase (headless Chromium, ${viewport.width}×${viewport.height})`,
    '',
    `Real: the built CLI's \`sandbar serve\` (poolSize 0) over a fresh SANDBAR_HOME seeded with ${RUNS.toLocaleString('en')} runs through the HistoryWriter (${(seedMs / 1000).toFixed(1)} s), the panel over HTTP with its token. ` +
      `In-memory: the same production panel build, with an in-page history API generating the same number of runs (no server, no HTTP, no SQLite). ` +
      `Each side in its own Chromium; every page load, in-app open and scrolling phase runs on the real side, then on the in-memory side (A B A B). ` +
      `Figures are median / p95 / max in ms; ratio = real / in-memory.`,
    '',
    '| opening History → first rows painted | real | in-memory | ratio median | ratio p95 |',
    '|---|---|---|---|---|',
    openRow(`page load (navigation start) → first rows, ${real.pageLoadMs.length} loads`, real.pageLoadMs, memory.pageLoadMs),
    openRow('of which: History view mounted → first rows', real.mountToPaintMs, memory.mountToPaintMs),
    openRow(`from another view (hash change) → first rows, ${real.inAppOpenMs.length} opens`, real.inAppOpenMs, memory.inAppOpenMs),
    '',
    '| scroll frame interval | real | in-memory | ratio median | ratio p95 | ratio max | real frames > 25 ms | in-memory frames > 25 ms | long tasks real / in-memory | most row elements in the DOM, real / in-memory |',
    '|---|---|---|---|---|---|---|---|---|---|',
    frameRow(`wheel from the top, pages loading (real ${real.wheelFromTop.rowsLoaded.toLocaleString('en')} rows loaded, in-memory ${memory.wheelFromTop.rowsLoaded.toLocaleString('en')})`, real.wheelFromTop, memory.wheelFromTop),
    frameRow(`scrollbar drag through all loaded rows (real ${real.loadAll.rows.toLocaleString('en')}, in-memory ${memory.loadAll.rows.toLocaleString('en')})`, real.dragDeep, memory.dragDeep),
    frameRow('wheel in the middle of the loaded rows', real.wheelDeep, memory.wheelDeep),
    '',
    `Caveat for the page-load row: the in-memory harness serves its build with \`cache-control: no-store\` and runs its bundled fake API as an init script before the panel, ` +
      `while \`sandbar serve\` serves hashed assets as immutable, so a real page load reuses cached, compiled scripts: compare the mount → first rows and hash-change rows for the API's cost.`,
    '',
    `Paging 200 at a time (End on the grid), ${(LOAD_ALL_BUDGET_MS / 1000).toFixed(0)} s allowed each: real ${load(real)}; in-memory ${load(memory)}. ` +
      `Row elements in the DOM: ${real.firstRowElements} (real) and ${memory.firstRowElements} (in-memory) on the first page; ` +
      `at most ${mostRows(real)} (real) and ${mostRows(memory)} (in-memory) in any sampled frame while scrolling.`,
  ].join('\n');
}
