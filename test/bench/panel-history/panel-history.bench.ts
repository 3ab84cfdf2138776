// Panel benchmark (History view, 100,000 runs) in real Chromium: how long opening History takes until the
// first rows are painted (the view's own marks, window.__sandbarPerf.history), and frame intervals while
// scrolling (a rAF loop in the page; scrolling driven by page.mouse.wheel and, for the scrollbar-drag case,
// by moving scrollTop every frame). Targets a running `sandbar serve` (baseUrl + token) or, without one,
// the real panel build over a fake preload API with N generated runs (panel-harness.ts). A session measures
// one phase at a time, so ../panel-history.bench.ts can alternate two targets phase by phase.
import { chromium, type Browser, type Page } from 'playwright-core';
import { ms, percentile } from '../stats.js';
import { startPanelHarness } from './panel-harness.js';

/** The list's fixed row height (renderer/features/history/history-table.tsx). */
const ROW_HEIGHT = 32;

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface PanelHistoryBenchOptions {
  /** A running `sandbar serve` (`http://127.0.0.1:7337`). Without it the fake-backed harness is built and used. */
  baseUrl?: string;
  /** The panel token (what follows `#token=` in the link `sandbar serve` prints, or the token file's content). */
  token?: string;
  /** Harness only: how many runs the fake history holds (default 100,000). */
  rows?: number;
  /** Harness only: milliseconds each API call waits (default 0: the figures are the panel's own cost). */
  latencyMs?: number;
  executablePath?: string;
  /** Full page loads measured (default 5) and in-app opens from another view (default 5). */
  samples?: number;
  /** Length of each scrolling phase (default 4000 ms). */
  scrollMs?: number;
  /** Time allowed for paging through every run before the deep-scroll phases (default 180 s). */
  loadAllBudgetMs?: number;
  viewport?: { width: number; height: number };
  log?: (line: string) => void;
}

export interface FrameStats {
  frames: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  /** Frames that took longer than 1.5 refresh intervals (≈ a dropped frame at 60 Hz). */
  over25Ms: number;
  longTasks: number;
  /** Most row elements in the list at any sampled frame. */
  maxRowElements: number;
}

export interface PanelHistoryBenchResult {
  target: string;
  /** Page load (navigation start) → first rows painted, per sample. */
  pageLoadMs: number[];
  /** Of those, from the History view mounting → first rows painted. */
  mountToPaintMs: number[];
  /** Hash change from another view → first rows painted (the app already loaded). */
  inAppOpenMs: number[];
  firstRowElements: number;
  wheelFromTop: FrameStats & { rowsLoaded: number };
  /** Paging through everything: each page from End to the list growing (fetch + merge + render). */
  loadAll: { rows: number; complete: boolean; ms: number; pages: number; pageMedianMs: number; pageP95Ms: number; pageMaxMs: number };
  dragDeep: FrameStats;
  wheelDeep: FrameStats;
  markdown: string;
}

// ---- in-page code (strings: this file is type-checked for Node, without DOM types) ------------------

const READ_PERF = `window.__sandbarPerf && window.__sandbarPerf.history`;
const FIRST_PAINTED = `(() => { const h = ${READ_PERF}; return !!(h && h.firstPaintAt !== null && h.openedAt !== null && h.firstPaintAt > h.openedAt); })()`;

/** Starts recording frame intervals, long tasks and the number of list rows in the DOM. */
const START_RECORDER = `(() => {
  const rec = { frames: [], longTasks: 0, maxRows: 0, on: true };
  window.__frameRec = rec;
  try {
    const po = new PerformanceObserver((list) => { rec.longTasks += list.getEntries().length; });
    po.observe({ type: 'longtask' });
    rec.po = po;
  } catch {}
  let last = 0, n = 0;
  const tick = (t) => {
    rec.frames.push(t - last);
    last = t;
    if (++n % 4 === 0) rec.maxRows = Math.max(rec.maxRows, document.querySelectorAll('.hist-body [role="row"]').length);
    if (rec.on) requestAnimationFrame(tick);
  };
  requestAnimationFrame((t) => { last = t; requestAnimationFrame(tick); });
})()`;

const STOP_RECORDER = `(() => {
  const rec = window.__frameRec;
  rec.on = false;
  if (rec.po) rec.po.disconnect();
  return { frames: rec.frames, longTasks: rec.longTasks, maxRows: rec.maxRows };
})()`;

/** Rows loaded so far, from the list's height (fixed-height rows), and whether that is all of them. */
const loadedRows = (rowHeight: number) => `(() => {
  const grid = document.querySelector('[role="grid"]');
  const spacer = document.querySelector('.hist-body .hist-spacer');
  if (!grid || !spacer) return { rows: 0, complete: false };
  const total = Number(grid.getAttribute('aria-rowcount'));
  if (total > 0) return { rows: total - 1, complete: true };
  return { rows: Math.round(parseFloat(spacer.style.height) / ${rowHeight}) - 1, complete: false };
})()`;

/**
 * Pages through every run in the page itself (no round trip per page): End on the grid selects the last
 * loaded row, which brings the next page; the time from End to the list growing is one page's latency.
 */
const pageThroughAll = (budgetMs: number) => `new Promise(async (resolve) => {
  const grid = document.querySelector('[role="grid"]');
  const spacer = () => document.querySelector('.hist-body .hist-spacer').style.height;
  const complete = () => Number(grid.getAttribute('aria-rowcount')) > 0;
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const start = performance.now();
  const perPage = [];
  while (!complete() && performance.now() - start < ${budgetMs}) {
    const before = spacer();
    const t0 = performance.now();
    grid.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    while (spacer() === before && !complete() && performance.now() - t0 < 15000) await frame();
    perPage.push(performance.now() - t0);
  }
  resolve({ ms: performance.now() - start, perPage, complete: complete() });
})`;

/** Sweeps scrollTop from the bottom to the top over `ms`, one jump per frame (dragging the scrollbar thumb). */
const dragSweep = (durationMs: number) => `new Promise((resolve) => {
  const body = document.querySelector('.hist-body');
  const max = body.scrollHeight - body.clientHeight;
  const start = performance.now();
  const step = (t) => {
    const f = Math.min(1, (t - start) / ${durationMs});
    body.scrollTop = Math.round(max * (1 - f));
    if (f < 1) requestAnimationFrame(step); else resolve(max);
  };
  requestAnimationFrame(step);
})`;

// ---- driver ------------------------------------------------------------------------------------------

function frameStats(raw: { frames: number[]; longTasks: number; maxRows: number }): FrameStats {
  const frames = raw.frames.slice(1);
  return {
    frames: frames.length,
    medianMs: percentile(frames, 50),
    p95Ms: percentile(frames, 95),
    maxMs: frames.length ? Math.max(...frames) : NaN,
    over25Ms: frames.filter((f) => f > 25).length,
    longTasks: raw.longTasks,
    maxRowElements: raw.maxRows,
  };
}

async function openFresh(page: Page, base: string, hash: string, n: number): Promise<void> {
  // A different query string forces a full load; the session keeps the token (sessionStorage).
  await page.goto(`${base}?bench=${n}${hash}`, { waitUntil: 'load' });
}

/** Polls an expression in the page (not waitForFunction: the panel's CSP forbids the eval it relies on). */
async function until(page: Page, expression: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${expression.slice(0, 80)}…`);
    await page.waitForTimeout(25);
  }
}

async function wheel(page: Page, durationMs: number, deltaY: number): Promise<void> {
  const end = Date.now() + durationMs;
  while (Date.now() < end) {
    await page.mouse.wheel(0, deltaY);
    await page.waitForTimeout(16);
  }
}

/** The loaded-everything figures: paging 200 at a time from End on the grid. */
export type LoadAllStats = PanelHistoryBenchResult['loadAll'];

/**
 * One target (a running `sandbar serve`, or the fake-backed harness) in its own Chromium, measured one phase
 * at a time so a caller can alternate two targets phase by phase. Phases must be called in this order:
 * warmUp, pageLoad × n, inAppOpen × n, wheelFromTop, loadAll, dragDeep, wheelDeep (each scroll phase starts
 * where the one before it left the list).
 */
export interface PanelHistorySession {
  target: string;
  viewport: { width: number; height: number };
  /** The first full load, not a sample: it also fills the HTTP cache, so every sample after it is alike. */
  warmUp(): Promise<void>;
  /** A full page load → first rows painted (and, of that, the History view mounting → first rows). */
  pageLoad(n: number): Promise<{ pageLoadMs: number; mountToPaintMs: number; firstRowElements: number }>;
  /** A hash change from another view → first rows painted (the app already loaded). */
  inAppOpen(n: number): Promise<number>;
  wheelFromTop(): Promise<FrameStats & { rowsLoaded: number }>;
  loadAll(): Promise<LoadAllStats>;
  dragDeep(): Promise<FrameStats>;
  wheelDeep(): Promise<FrameStats>;
  close(): Promise<void>;
}

export async function openPanelHistorySession(options: PanelHistoryBenchOptions = {}): Promise<PanelHistorySession> {
  const log = options.log ?? (() => {});
  const scrollMs = options.scrollMs ?? 4000;
  const viewport = options.viewport ?? { width: 1400, height: 900 };
  const harness = options.baseUrl ? null : await startPanelHarness({ rows: options.rows ?? 100_000, latencyMs: options.latencyMs ?? 0 });
  const base = (options.baseUrl ?? harness!.url).replace(/\/?$/, '/');
  const target = options.baseUrl ? `sandbar serve at ${options.baseUrl}` : `panel build + fake API with ${(options.rows ?? 100_000).toLocaleString('en')} runs`;
  let browser: Browser | null = null;
  const close = async () => {
    await browser?.close();
    await harness?.close();
  };
  try {
    browser = await chromium.launch({ executablePath: options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport });
    page.on('pageerror', (e) => log(`page error: ${e.message}`));
    if (harness) await page.addInitScript(harness.initScript);
    // The token arrives once in the fragment; the panel keeps it for the tab's session.
    if (options.token) await page.goto(`${base}#token=${encodeURIComponent(options.token)}`, { waitUntil: 'load' });

    const load = async (n: number) => {
      await openFresh(page, base, '#/history', n);
      await until(page, FIRST_PAINTED, 60_000);
      return (await page.evaluate(READ_PERF)) as { openedAt: number; firstPaintAt: number; firstRowElements: number };
    };
    const recordWhile = async (action: () => Promise<unknown>) => {
      await page.evaluate(START_RECORDER);
      await action();
      return frameStats((await page.evaluate(STOP_RECORDER)) as never);
    };
    return {
      target,
      viewport,
      close,
      warmUp: async () => void (await load(0)),
      pageLoad: async (n) => {
        const h = await load(n);
        log(`${target}: page load → first rows: ${ms(h.firstPaintAt)} ms (mount → paint ${ms(h.firstPaintAt - h.openedAt)} ms)`);
        return { pageLoadMs: h.firstPaintAt, mountToPaintMs: h.firstPaintAt - h.openedAt, firstRowElements: h.firstRowElements };
      },
      inAppOpen: async (n) => {
        await openFresh(page, base, '#/live', 100 + n);
        await page.waitForTimeout(800); // the other view settles (snapshots fetched, first paint)
        const t0 = (await page.evaluate(`(() => { const t = performance.now(); location.hash = '#/history'; return t; })()`)) as number;
        await until(page, FIRST_PAINTED, 60_000);
        const h = (await page.evaluate(READ_PERF)) as { firstPaintAt: number };
        log(`${target}: in-app open → first rows: ${ms(h.firstPaintAt - t0)} ms`);
        return h.firstPaintAt - t0;
      },
      // Scrolling from the top with the wheel: pages of 200 load as the end comes near.
      wheelFromTop: async () => {
        const box = await page.locator('.hist-body').boundingBox();
        if (!box) throw new Error('the History list is not on the page');
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        const stats = await recordWhile(() => wheel(page, scrollMs, 320));
        const rowsLoaded = ((await page.evaluate(loadedRows(ROW_HEIGHT))) as { rows: number }).rows;
        log(`${target}: wheel from top: median ${ms(stats.medianMs)} ms, p95 ${ms(stats.p95Ms)} ms, ${rowsLoaded} rows loaded`);
        return { ...stats, rowsLoaded };
      },
      loadAll: async () => {
        const paged = (await page.evaluate(pageThroughAll(options.loadAllBudgetMs ?? 180_000))) as { ms: number; perPage: number[]; complete: boolean };
        const loadAll = {
          rows: ((await page.evaluate(loadedRows(ROW_HEIGHT))) as { rows: number }).rows,
          complete: paged.complete,
          ms: paged.ms,
          pages: paged.perPage.length,
          pageMedianMs: percentile(paged.perPage, 50),
          pageP95Ms: percentile(paged.perPage, 95),
          pageMaxMs: Math.max(...paged.perPage),
        };
        log(`${target}: paged through ${loadAll.rows} rows in ${(loadAll.ms / 1000).toFixed(1)} s; a page: median ${ms(loadAll.pageMedianMs)} ms, max ${ms(loadAll.pageMaxMs)} ms`);
        return loadAll;
      },
      // With every row loaded: dragging the scrollbar through all of them (every frame new rows)...
      dragDeep: async () => {
        const stats = await recordWhile(() => page.evaluate(dragSweep(scrollMs)));
        log(`${target}: drag through all rows: median ${ms(stats.medianMs)} ms, p95 ${ms(stats.p95Ms)} ms, max ${ms(stats.maxMs)} ms`);
        return stats;
      },
      // ...and wheel-scrolling in the middle of them.
      wheelDeep: async () => {
        await page.evaluate(`(() => { const b = document.querySelector('.hist-body'); b.scrollTop = b.scrollHeight / 2; })()`);
        await page.waitForTimeout(300);
        const stats = await recordWhile(() => wheel(page, scrollMs, 320));
        log(`${target}: wheel deep: median ${ms(stats.medianMs)} ms, p95 ${ms(stats.p95Ms)} ms`);
        return stats;
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Every phase against one target, one after another (the standalone run.ts). */
export async function runPanelHistoryBench(options: PanelHistoryBenchOptions = {}): Promise<PanelHistoryBenchResult> {
  const samples = options.samples ?? 5;
  const session = await openPanelHistorySession(options);
  try {
    await session.warmUp();
    const pageLoadMs: number[] = [];
    const mountToPaintMs: number[] = [];
    let firstRowElements = 0;
    for (let i = 1; i <= samples; i++) {
      const sample = await session.pageLoad(i);
      pageLoadMs.push(sample.pageLoadMs);
      mountToPaintMs.push(sample.mountToPaintMs);
      firstRowElements = sample.firstRowElements;
    }
    const inAppOpenMs: number[] = [];
    for (let i = 0; i < samples; i++) inAppOpenMs.push(await session.inAppOpen(i));
    const wheelFromTop = await session.wheelFromTop();
    const loadAll = await session.loadAll();
    const dragDeep = await session.dragDeep();
    const wheelDeep = await session.wheelDeep();
    const result = { target: session.target, pageLoadMs, mountToPaintMs, inAppOpenMs, firstRowElements, wheelFromTop, loadAll, dragDeep, wheelDeep };
    return { ...result, markdown: toMarkdown(result, session.viewport) };
  } finally {
    await session.close();
  }
}

function toMarkdown(r: Omit<PanelHistoryBenchResult, 'markdown'>, viewport: { width: number; height: number }): string {
  const row3 = (label: string, v: number[]) => `| ${label} | ${ms(percentile(v, 50))} | ${ms(percentile(v, 95))} | ${ms(Math.max(...v))} |`;
  const frameRow = (label: string, f: FrameStats) =>
    `| ${label} | ${f.frames} | ${ms(f.medianMs)} | ${ms(f.p95Ms)} | ${ms(f.maxMs)} | ${f.over25Ms} | ${f.longTasks} | ${f.maxRowElements} |`;
  return [
    `### Panel: History view, ${r.loadAll.rows.toLocaleString('en')} runs (${r.target}; headless Chromium, ${viewport.width}×${viewport.height})`,
    '',
    '| opening History → first rows painted | median ms | p95 ms | max ms |',
    '|---|---|---|---|',
    row3(`page load (navigation start) → first rows painted, ${r.pageLoadMs.length} loads`, r.pageLoadMs),
    row3('of which: History view mounted → first rows painted', r.mountToPaintMs),
    row3(`from another view (hash change) → first rows painted, ${r.inAppOpenMs.length} opens`, r.inAppOpenMs),
    '',
    `First page: ${r.firstRowElements} row elements in the DOM. Paging through every run 200 at a time (End on the grid, which loads the ` +
      `next page): ${r.loadAll.rows.toLocaleString('en')} rows in ${(r.loadAll.ms / 1000).toFixed(1)} s${r.loadAll.complete ? '' : ' (stopped at the time budget)'}, ` +
      `${r.loadAll.pages} pages; one page from the key to the longer list on screen (fetch, merge, render): median ${ms(r.loadAll.pageMedianMs)} ms, ` +
      `p95 ${ms(r.loadAll.pageP95Ms)} ms, max ${ms(r.loadAll.pageMaxMs)} ms.`,
    '',
    '| scrolling | frames | median ms | p95 ms | max ms | frames > 25 ms | long tasks | most rows in DOM |',
    '|---|---|---|---|---|---|---|---|',
    frameRow(`wheel from the top, pages loading as it goes (${r.wheelFromTop.rowsLoaded.toLocaleString('en')} rows loaded at the end)`, r.wheelFromTop),
    frameRow(`scrollbar drag through all ${r.loadAll.rows.toLocaleString('en')} rows (new rows every frame)`, r.dragDeep),
    frameRow('wheel in the middle of all the rows', r.wheelDeep),
  ].join('\n');
}

/** `http://127.0.0.1:7337/#token=abc` (what `sandbar serve` prints) → base URL and token. */
export function parsePanelLink(link: string): { baseUrl: string; token?: string } {
  const url = new URL(link);
  const token = /(?:^#|&)token=([^&]+)/.exec(url.hash)?.[1];
  return { baseUrl: `${url.origin}${url.pathname}`, ...(token ? { token: decodeURIComponent(token) } : {}) };
}
