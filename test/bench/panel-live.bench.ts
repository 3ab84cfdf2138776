// Panel Live view: input latency while a run streams ~10,000 lines a second, against the same page with
// nothing running, in one run, alternating (idle, streaming, idle, streaming: BENCH_PANEL_LIVE_ROUNDS
// rounds), each round starting with the warm pool full again so no idle phase sees a container start.
// The real `sandbar serve` (built CLI, pool of 1, the test image), the panel in headless Chromium at #/live, and a run started by an MCP client. In the page: the Event Timing API
// (entries ≥ 16 ms for pointerdown/click/keydown: duration and input delay), performance.eventCounts (every
// interaction, reported or not), a rAF loop (frame intervals, the last output line on screen), long tasks
// and layout shifts. The benchmark clicks the view's heading and presses Tab, alternately, every 100 ms.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { apiCall as api, launchChromium, mcpClient, startServe, type Served } from '../e2e/serve-process.js';
import { ms, percentile, sleep } from './stats.js';

const IMAGE = process.env.SANDBAR_IMAGE ?? 'localhost/sandbar-python:test';
const LINES = Number(process.env.BENCH_PANEL_LIVE_LINES ?? 80_000);
/** Lines a second the run aims for. */
const RATE = 10_000;
/** Interactions per phase (half clicks on the heading, half Tab presses), one every INTERVAL_MS. */
const INTERACTIONS = Number(process.env.BENCH_PANEL_LIVE_INTERACTIONS ?? 50);
const INTERVAL_MS = 100;
/** Idle/streaming pairs, measured A B A B; the table pools each side's rounds. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_PANEL_LIVE_ROUNDS ?? 2));
/** Each phase starts with this long without input, so layout shifts there cannot be excused as input-driven. */
const QUIET_MS = 1000;
const OUTPUT_CAP = 8 * 1024 ** 2;
const VIEWPORT = { width: 1360, height: 860 };

const log = (line: string) => {
  if (process.env.BENCH_VERBOSE) console.error(`  [panel-live] ${line}`);
};

// ---- in-page code (strings: this file is type-checked for Node, without DOM types) ------------------

/** Observers that live for the whole page: event timing, layout shifts, long tasks (all buffered). */
const INSTALL = `(() => {
  if (window.__liveBench) return true;
  const b = { events: [], shifts: [], longTasks: [], phase: null };
  window.__liveBench = b;
  const describe = (node) => {
    if (!node || node.nodeType !== 1) return node ? node.nodeName : '(gone)';
    const cls = typeof node.className === 'string' && node.className.trim() ? '.' + node.className.trim().split(/\\s+/).join('.') : '';
    return node.tagName.toLowerCase() + (node.id ? '#' + node.id : '') + cls;
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name !== 'pointerdown' && e.name !== 'click' && e.name !== 'keydown') continue;
      b.events.push({ name: e.name, start: e.startTime, duration: e.duration, delay: e.processingStart - e.startTime, id: e.interactionId || 0 });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      b.shifts.push({
        start: e.startTime, value: e.value, recent: e.hadRecentInput,
        sources: (e.sources || []).map((s) => describe(s.node) + ' x ' + Math.round(s.previousRect.x) + '→' + Math.round(s.currentRect.x) + ' y ' + Math.round(s.previousRect.y) + '→' + Math.round(s.currentRect.y) + ' w ' + Math.round(s.previousRect.width) + '→' + Math.round(s.currentRect.width) + ' h ' + Math.round(s.previousRect.height) + '→' + Math.round(s.currentRect.height)),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) b.longTasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true });
  } catch {}
  return true;
})()`;

/** The last "line NNNNNN" in the (first) output pane, or -1; cheap enough for every frame. */
const LAST_LINE_FN = `(() => {
  const pane = document.querySelector('.output-pane');
  if (!pane) return -1;
  const last = pane.lastElementChild;
  const text = last ? last.textContent : '';
  const tail = text.slice(-64);
  const at = tail.lastIndexOf('line ');
  return at === -1 ? -1 : Number(tail.slice(at + 5, at + 11));
})`;

const START_PHASE = `(() => {
  const b = window.__liveBench;
  const lastLine = ${LAST_LINE_FN};
  const counts = () => ({ pointerdown: performance.eventCounts.get('pointerdown') || 0, click: performance.eventCounts.get('click') || 0, keydown: performance.eventCounts.get('keydown') || 0 });
  const p = { t0: performance.now(), counts0: counts(), counts, frames: [], maxLine: -1, firstLine: -1, lineSamples: [], on: true };
  b.phase = p;
  let last = 0, n = 0;
  const tick = (t) => {
    p.frames.push(t - last);
    last = t;
    const line = lastLine();
    if (line >= 0) {
      if (p.firstLine < 0) p.firstLine = line;
      if (line > p.maxLine) p.maxLine = line;
    }
    if (++n % 15 === 0) p.lineSamples.push([t, line]);
    if (p.on) requestAnimationFrame(tick);
  };
  requestAnimationFrame((t) => { last = t; requestAnimationFrame(tick); });
  return p.t0;
})()`;

const STOP_PHASE = `(() => {
  const b = window.__liveBench;
  const p = b.phase;
  p.on = false;
  const t1 = performance.now();
  const c = p.counts();
  const inWindow = (x) => x.start >= p.t0 && x.start <= t1;
  const pane = document.querySelector('.output-pane');
  return {
    t0: p.t0, t1,
    frames: p.frames.slice(1),
    counts: { pointerdown: c.pointerdown - p.counts0.pointerdown, click: c.click - p.counts0.click, keydown: c.keydown - p.counts0.keydown },
    events: b.events.filter(inWindow),
    shifts: b.shifts.filter(inWindow),
    longTasks: b.longTasks.filter(inWindow),
    firstLine: p.firstLine, maxLine: p.maxLine, lineSamples: p.lineSamples,
    pane: pane ? {
      following: pane.scrollHeight - pane.scrollTop - pane.clientHeight < 24,
      chars: pane.textContent.length,
      lines: pane.textContent.split('\\n').length - 1,
      height: pane.getBoundingClientRect().height,
    } : null,
  };
})()`;

interface PhaseRaw {
  t0: number;
  t1: number;
  frames: number[];
  counts: { pointerdown: number; click: number; keydown: number };
  events: { name: string; start: number; duration: number; delay: number; id: number }[];
  shifts: { start: number; value: number; recent: boolean; sources: string[] }[];
  longTasks: { start: number; duration: number }[];
  firstLine: number;
  maxLine: number;
  lineSamples: [number, number][];
  pane: { following: boolean; chars: number; lines: number; height: number } | null;
}

interface Phase {
  /** Each round's raw figures, in order. */
  rounds: PhaseRaw[];
  seconds: number;
  interactions: number;
  /** Interactions with an entry ≥ 16 ms: their longest entry (duration) and its input delay. */
  reported: { duration: number; delay: number }[];
  /** Interactions whose longest entry is over 16 ms (durations come rounded to 8 ms: 24 or more). */
  over16: number;
  over50: number;
  shiftAll: number;
  shiftNoInput: number;
  frames: { n: number; median: number; p95: number; max: number; over50: number };
  longTasks: { n: number; max: number; total: number };
}

// ---- driver ------------------------------------------------------------------------------------------

/** Polls an expression in the page (the panel's CSP forbids the eval that waitForFunction relies on). */
async function until(page: Page, expression: string, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(25);
  }
}



/** One measured phase: QUIET_MS without input, then INTERACTIONS inputs INTERVAL_MS apart. */
async function measure(page: Page): Promise<PhaseRaw> {
  const heading = await page.locator('#live-title').boundingBox();
  if (!heading) throw new Error('the Live heading is not on the page');
  const [x, y] = [heading.x + Math.min(20, heading.width / 2), heading.y + heading.height / 2];
  await page.mouse.move(x, y);
  await page.evaluate(START_PHASE);
  await sleep(QUIET_MS);
  const start = Date.now();
  for (let i = 0; i < INTERACTIONS; i++) {
    const wait = start + i * INTERVAL_MS - Date.now();
    if (wait > 0) await sleep(wait);
    if (i % 2 === 0) await page.mouse.click(x, y);
    else await page.keyboard.press('Tab');
  }
  await sleep(300); // the last interaction's next paint
  return (await page.evaluate(STOP_PHASE)) as PhaseRaw;
}

/** One side's rounds pooled: counts and entries added up, frame intervals and entries concatenated. */
function summarise(rounds: PhaseRaw[]): Phase {
  const all = <T>(pick: (r: PhaseRaw) => T[]) => rounds.flatMap(pick);
  const raw = {
    events: all((r) => r.events),
    frames: all((r) => r.frames),
    shifts: all((r) => r.shifts),
    longTasks: all((r) => r.longTasks),
    counts: { pointerdown: 0, keydown: 0 },
  };
  for (const r of rounds) {
    raw.counts.pointerdown += r.counts.pointerdown;
    raw.counts.keydown += r.counts.keydown;
  }
  // An interaction's latency is its longest entry (pointerdown, click or keydown share one interactionId,
  // unique within the page across rounds).
  const byInteraction = new Map<string, { duration: number; delay: number }>();
  for (const e of raw.events) {
    const key = e.id > 0 ? `i${e.id}` : `${e.name}@${Math.round(e.start)}`;
    const seen = byInteraction.get(key);
    if (!seen || e.duration > seen.duration) byInteraction.set(key, { duration: e.duration, delay: Math.max(e.delay, seen?.delay ?? 0) });
    else seen.delay = Math.max(seen.delay, e.delay);
  }
  const reported = [...byInteraction.values()];
  const frames = raw.frames;
  return {
    rounds,
    seconds: rounds.reduce((sum, r) => sum + (r.t1 - r.t0) / 1000, 0),
    interactions: raw.counts.pointerdown + raw.counts.keydown,
    reported,
    over16: reported.filter((r) => r.duration > 16).length,
    over50: reported.filter((r) => r.duration > 50).length,
    shiftAll: raw.shifts.reduce((s, e) => s + e.value, 0),
    shiftNoInput: raw.shifts.filter((e) => !e.recent).reduce((s, e) => s + e.value, 0),
    frames: { n: frames.length, median: percentile(frames, 50), p95: percentile(frames, 95), max: frames.length ? Math.max(...frames) : NaN, over50: frames.filter((f) => f > 50).length },
    longTasks: { n: raw.longTasks.length, max: raw.longTasks.length ? Math.max(...raw.longTasks.map((t) => t.duration)) : 0, total: raw.longTasks.reduce((s, t) => s + t.duration, 0) },
  };
}

/** A warm container waiting, so an idle phase is not measured during a container's start. */
async function poolReady(served: Served): Promise<void> {
  const deadline = Date.now() + 90_000;
  while ((await api<{ pool: { ready: number } }>(served, 'live.snapshot')).pool.ready < 1) {
    if (Date.now() > deadline) throw new Error('the pool did not get a warm container within 90 s');
    await sleep(250);
  }
}

/** What one streaming round's run did. */
interface StreamRun {
  exitReason: string;
  runMs: number;
  linesBack: number;
  outputAfterMs: number;
  stillRunningAtEnd: boolean;
}

export async function benchPanelLive(): Promise<string> {
  const served = await startServe({ image: IMAGE, settings: { image: IMAGE, poolSize: 1, httpPort: 0 } });
  const browser = await launchChromium();
  let client: Client | null = null;
  try {
    await api(served, 'settings.update', { patch: { limits: { outputCapBytes: OUTPUT_CAP } } });
    client = await mcpClient(served, 'bench-panel-live');

    const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: 'light' });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(served.panelUrl, { waitUntil: 'load' });
    await page.evaluate(`location.hash = '#/live'`);
    await page.evaluate(INSTALL);

    // ~10,000 lines a second for ~8 s. Paced against the clock every 100 lines (a fixed sleep gives less
    // than 10,000 a second on a busy machine).
    const code = [
      'import time',
      'start = time.monotonic()',
      `for i in range(${LINES}):`,
      '    print(f"line {i:06d} xxxxxxxxxxxx")',
      '    if i % 100 == 99:',
      `        delay = start + (i + 1) / ${RATE} - time.monotonic()`,
      '        if delay > 0:',
      '            time.sleep(delay)',
    ].join('\n');
    const idle: PhaseRaw[] = [];
    const streaming: PhaseRaw[] = [];
    const runs: StreamRun[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // A: nothing running, a warm container waiting (the pool refilled after the last round's run).
      await poolReady(served);
      await until(page, `!!document.querySelector('#live-title') && document.body.textContent.includes('Nothing running')`, 30_000, 'the idle Live view');
      await sleep(1500); // the view settles (snapshots, fonts, first paints)
      idle.push(await measure(page));
      log(`round ${round + 1} idle: ${idle.at(-1)!.counts.pointerdown + idle.at(-1)!.counts.keydown} interactions, ${idle.at(-1)!.events.length} entries ≥ 16 ms`);

      // B: the same page while a run streams into it.
      const callStarted = Date.now();
      const call = client.callTool({ name: 'run_python', arguments: { code, timeout: 60 } }, undefined, { timeout: 120_000 });
      call.catch(() => {}); // awaited below; a failure must not surface as unhandled meanwhile
      await until(page, `${LAST_LINE_FN}() >= 0`, 60_000, 'the first streamed line in the output pane');
      const outputAfterMs = Date.now() - callStarted;
      streaming.push(await measure(page));
      const stillRunningAtEnd = (await page.evaluate(`!!document.querySelector('.output-pane')`)) as boolean;
      const phase = streaming.at(-1)!;
      log(`round ${round + 1} streaming: ${phase.counts.pointerdown + phase.counts.keydown} interactions, ${phase.events.length} entries ≥ 16 ms, lines ${phase.firstLine}..${phase.maxLine}`);

      const result = (await call) as { structuredContent?: { exitReason?: string; durationMs?: number; stdout?: string[]; status?: string } };
      const sc = result.structuredContent ?? {};
      runs.push({ exitReason: sc.exitReason ?? sc.status ?? '?', runMs: sc.durationMs ?? NaN, linesBack: sc.stdout?.length ?? 0, outputAfterMs, stillRunningAtEnd });
      await until(page, `!document.querySelector('.output-pane')`, 30_000, 'the finished run to leave the Live view');
    }

    return toMarkdown({ idle: summarise(idle), streaming: summarise(streaming), runs, pageErrors });
  } finally {
    await client?.close().catch(() => {});
    await browser.close();
    await served.stop();
  }
}

// ---- report ------------------------------------------------------------------------------------------

const pct = (n: number, of: number) => (of > 0 ? `${((100 * n) / of).toFixed(0)}%` : '—');
const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '—');
/** A figure over the reported entries; "<16" when none was reported (every one under the threshold). */
const reportedFigure = (values: number[], f: (v: number[]) => number) => (values.length ? ms(f(values)) : '<16');

function toMarkdown(r: { idle: Phase; streaming: Phase; runs: StreamRun[]; pageErrors: string[] }): string {
  const { idle, streaming: s } = r;
  const dur = (p: Phase) => p.reported.map((x) => x.duration);
  const delay = (p: Phase) => p.reported.map((x) => x.delay);
  const max = (v: number[]) => Math.max(...v);
  const p95 = (v: number[]) => percentile(v, 95);
  /** p95 over every interaction, the unreported ones counted as under 16 ms. */
  const allP95 = (p: Phase) => {
    const all = [...dur(p), ...Array.from({ length: Math.max(0, p.interactions - p.reported.length) }, () => 0)];
    const v = percentile(all, 95);
    return v < 16 ? '<16' : ms(v);
  };
  const ratioReported = (a: number[], b: number[], f: (v: number[]) => number) => (a.length && b.length ? ratio(f(a), f(b)) : a.length ? `≥ ${ratio(f(a), 16)}` : '—');
  const shareRatio = (a: number, b: number) => (b > 0 ? ratio(a, b) : a > 0 ? '∞ (none idle)' : '—');
  const row = (label: string, a: string, b: string, ratioText: string) => `| ${label} | ${a} | ${b} | ${ratioText} |`;
  const runsText = r.runs
    .map((run) => `${(LINES / (run.runMs / 1000)).toFixed(0)} lines/s over ${(run.runMs / 1000).toFixed(1)} s, exit ${run.exitReason}, ${run.linesBack.toLocaleString('en')} lines back over MCP`)
    .join('; ');
  const allShifts = s.rounds.flatMap((round) => round.shifts);
  const topShifts = [...allShifts].sort((a, b) => b.value - a.value).slice(0, 3);
  const onPage = (raw: PhaseRaw, run: StreamRun, round: number) => {
    const samples = raw.lineSamples.filter(([, l]) => l >= 0);
    const visibleRate = samples.length > 1 ? ((samples.at(-1)![1] - samples[0]![1]) / ((samples.at(-1)![0] - samples[0]![0]) / 1000)).toFixed(0) : '—';
    return (
      `round ${round + 1}: the first line appeared ${(run.outputAfterMs / 1000).toFixed(1)} s after the MCP call; during the phase the pane's last line went from ` +
      `${raw.firstLine.toLocaleString('en')} to ${raw.maxLine.toLocaleString('en')} (of ${(LINES - 1).toLocaleString('en')}; ≈ ${visibleRate} lines/s on screen)` +
      `${run.stillRunningAtEnd ? ', the run still streaming when the phase ended' : ', the run had ended before the phase did'}; ` +
      (raw.pane
        ? `the pane held ${raw.pane.lines.toLocaleString('en')} lines (${(raw.pane.chars / 1024).toFixed(0)} KiB, the bounded tail), ${raw.pane.height.toFixed(0)} px high, ${raw.pane.following ? 'following the end' : 'NOT at the end'}`
        : 'the pane was gone at the end of the phase')
    );
  };

  return [
    `### Panel: Live view input latency while output streams (real \`sandbar serve\`, headless Chromium, ${VIEWPORT.width}×${VIEWPORT.height}; ${ROUNDS} rounds, interleaved idle, streaming, idle, streaming)`,
    '',
    `A run printing ${LINES.toLocaleString('en')} lines paced at ${RATE.toLocaleString('en')} a second (${runsText}) ` +
      `against the same page with nothing running, alternating in one run (${ROUNDS} idle and ${ROUNDS} streaming phases; each side's phases pooled below). ` +
      `Each phase: ${QUIET_MS / 1000} s without input, then ${INTERACTIONS} interactions ${INTERVAL_MS} ms apart ` +
      `(a click on the view's heading and Tab, alternately). Event Timing reports only entries ≥ 16 ms (pointerdown/click/keydown, grouped per interaction, durations rounded to 8 ms ` +
      `and ending at the next paint, so an idle click often reads 16); the rest count as "<16". Ratio = streaming / idle.`,
    '',
    '| | idle | streaming | ratio |',
    '|---|---|---|---|',
    row('phase length, s (all rounds together)', idle.seconds.toFixed(1), s.seconds.toFixed(1), ''),
    row('interactions dispatched (performance.eventCounts)', String(idle.interactions), String(s.interactions), ''),
    row('interactions reported (≥ 16 ms, the observer threshold)', `${idle.reported.length} (${pct(idle.reported.length, idle.interactions)})`, `${s.reported.length} (${pct(s.reported.length, s.interactions)})`, shareRatio(s.reported.length, idle.reported.length)),
    row('interactions > 16 ms', `${idle.over16} (${pct(idle.over16, idle.interactions)})`, `${s.over16} (${pct(s.over16, s.interactions)})`, shareRatio(s.over16, idle.over16)),
    row('interactions > 50 ms', `${idle.over50} (${pct(idle.over50, idle.interactions)})`, `${s.over50} (${pct(s.over50, s.interactions)})`, shareRatio(s.over50, idle.over50)),
    row('interaction duration p95, all interactions, ms', allP95(idle), allP95(s), ''),
    row('reported durations p95, ms', reportedFigure(dur(idle), p95), reportedFigure(dur(s), p95), ratioReported(dur(s), dur(idle), p95)),
    row('reported durations max, ms', reportedFigure(dur(idle), max), reportedFigure(dur(s), max), ratioReported(dur(s), dur(idle), max)),
    row('input delay of reported, p95 / max, ms', idle.reported.length ? `${ms(p95(delay(idle)))} / ${ms(max(delay(idle)))}` : '—', s.reported.length ? `${ms(p95(delay(s)))} / ${ms(max(delay(s)))}` : '—', ''),
    row('frame interval median, ms', ms(idle.frames.median), ms(s.frames.median), ratio(s.frames.median, idle.frames.median)),
    row('frame interval p95, ms', ms(idle.frames.p95), ms(s.frames.p95), ratio(s.frames.p95, idle.frames.p95)),
    row('frame interval max, ms', ms(idle.frames.max), ms(s.frames.max), ratio(s.frames.max, idle.frames.max)),
    row('frames > 50 ms', `${idle.frames.over50} / ${idle.frames.n}`, `${s.frames.over50} / ${s.frames.n}`, ''),
    row('long tasks (count, longest ms, total ms)', `${idle.longTasks.n}, ${ms(idle.longTasks.max)}, ${ms(idle.longTasks.total)}`, `${s.longTasks.n}, ${ms(s.longTasks.max)}, ${ms(s.longTasks.total)}`, ratio(s.longTasks.total, idle.longTasks.total)),
    row('layout shift, sum without recent input', idle.shiftNoInput.toFixed(4), s.shiftNoInput.toFixed(4), ''),
    row('layout shift, sum of all entries', idle.shiftAll.toFixed(4), s.shiftAll.toFixed(4), ''),
    '',
    `Output on the page, ${s.rounds.map((raw, k) => onPage(raw, r.runs[k]!, k)).join('; ')}.` +
      (topShifts.length ? ` Largest shifts while streaming: ${topShifts.map((e) => `${e.value.toFixed(4)}${e.recent ? ' (after input)' : ''} [${e.sources.join('; ')}]`).join(', ')}.` : ' No layout shift while streaming.') +
      (r.pageErrors.length ? ` Page errors: ${r.pageErrors.join(' | ')}.` : ''),
  ].join('\n');
}
