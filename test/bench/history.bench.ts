// History store benchmark (issue: execution history). Seeds 100,000 runs with realistic sizes into a
// temporary database, then times what the panel and the CLI do: the first page, a page deep in the list
// (keyset), filtered pages, full-text search, counts, opening the store, and the cost of recording a run.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EngineEvent, ExecutionResult, ExitReason } from '../../shared/execution.js';
import { DEFAULT_LIMITS } from '../../shared/limits.js';
import { openBetterSqlite } from '../../electron/history/better-sqlite-driver.js';
import { encodeCursor } from '../../electron/history/history-query.js';
import { HistoryStore } from '../../electron/history/history-store.js';
import { HistoryRetention, PRUNE_BATCH } from '../../electron/history/history-retention.js';
import { HistoryWriter } from '../../electron/history/history-writer.js';
import { openDatabase } from '../../electron/history/open-database.js';
import { ms, percentile, prng } from './stats.js';

const RUNS = Number(process.env.BENCH_HISTORY_RUNS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_HISTORY_SAMPLES ?? 50);
const RECORD_RUNS = 2000;
const DAY = 24 * 60 * 60 * 1000;


const rand = prng(42);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'shi', 'vo', 'den', 'pra', 'qua', 'zel', 'mor', 'tis', 'ban', 'ul'];
const WORDS = Array.from({ length: 3000 }, () => Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(SYLLABLES)).join(''));
const CODE_LINES = Array.from({ length: 4000 }, () => {
  const [a, b, c] = [pick(WORDS), pick(WORDS), pick(WORDS)];
  return pick([
    `import ${a}`,
    `${a} = ${b}.${c}(${Math.floor(rand() * 1000)})`,
    `for ${a} in range(${Math.floor(rand() * 100)}):`,
    `    print(f"{${a}} ${b} {${c}}")`,
    `def ${a}(${b}, ${c}=None):`,
    `    return ${b}.get("${c}", ${rand().toFixed(3)})`,
    `result = await mcp_${a}.${b}(path="/data/${c}.csv")`,
  ]);
});
const OUTPUT_LINES = Array.from({ length: 20_000 }, () => `${pick(WORDS)} ${pick(WORDS)}: ${(rand() * 10_000).toFixed(2)} ${pick(WORDS)} ok=${rand() < 0.9}`);
const SERVERS = ['filesystem', 'github', 'postgres', 'slack', 'everything'];
const CLIENTS = [{ name: 'claude-code', version: '2.1.0', transport: 'stdio' as const }, { name: 'cursor', version: '1.4' }, { name: 'cli', transport: 'cli' as const }];
const REASONS: ExitReason[] = ['success', 'success', 'success', 'success', 'success', 'success', 'error', 'error', 'timeout', 'cancelled'];

function text(lines: readonly string[], bytes: number): string {
  const out: string[] = [];
  for (let size = 0; size < bytes; ) {
    const line = pick(lines);
    out.push(line);
    size += line.length + 1;
  }
  return out.join('\n');
}

/** Code 200 B–5 KB (log-uniform), stdout 0–20 KB (most runs print little), stderr on one run in five, tool calls on one in three. */
function runEvents(i: number, queuedAt: number): EngineEvent[] {
  const id = `run-${String(i).padStart(7, '0')}`;
  let code = text(CODE_LINES, 200 * 25 ** rand());
  let stdout = text(OUTPUT_LINES, 20_000 * rand() ** 3);
  if (i === Math.floor(RUNS / 3)) stdout += '\nxylophonist';
  if (i === Math.floor(RUNS / 2)) code += '\nimport zanzibarite';
  const exitReason = pick(REASONS);
  const stderr = exitReason === 'error' || rand() < 0.2 ? `Traceback (most recent call last):\n${text(CODE_LINES, 300)}\nValueError: ${pick(WORDS)}` : '';
  const servers = rand() < 0.4 ? [pick(SERVERS)] : [];
  const startedAt = queuedAt + 2;
  const finishedAt = startedAt + Math.floor(rand() * 3000);
  const events: EngineEvent[] = [
    { type: 'queued', execution: { id, code, servers, client: pick(CLIENTS), timeoutSec: 30, queuedAt }, position: 0 },
    { type: 'started', id, at: startedAt, containerName: `sandbar-${i}`, warm: true },
  ];
  if (servers.length && rand() < 0.8) {
    for (let c = 0; c < 1 + Math.floor(rand() * 4); c++) {
      events.push({ type: 'toolCall', call: { executionId: id, server: servers[0]!, tool: pick(WORDS), startedAt: startedAt + c, durationMs: 5, bytesIn: 80, bytesOut: 900, isError: false } });
    }
  }
  const result: ExecutionResult = {
    id, exitReason, exitCode: exitReason === 'success' ? 0 : 1, stdout, stderr, stdoutTruncated: false, stderrTruncated: false,
    timeoutSec: 30, limits: DEFAULT_LIMITS, queuedAt, startedAt, finishedAt, durationMs: finishedAt - startedAt,
  };
  events.push({ type: 'finished', result });
  return events;
}

function time(fn: () => unknown, samples = SAMPLES): number[] {
  fn(); // warm the statement cache and the page cache
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    fn();
    out.push(performance.now() - start);
  }
  return out;
}

export async function benchHistory(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-history-bench-'));
  const file = path.join(dir, 'history.db');
  try {
    const start = Date.now() - 30 * DAY;
    const step = (30 * DAY) / RUNS;
    const { db } = await openDatabase(file, openBetterSqlite);
    const writer = new HistoryWriter(db, { identity: { host: 'bench', pid: process.pid } });
    let seedMs = 0;
    const BATCH = 5000;
    for (let from = 0; from < RUNS; from += BATCH) {
      const events = Array.from({ length: Math.min(BATCH, RUNS - from) }, (_, k) => runEvents(from + k, Math.floor(start + (from + k) * step))).flat();
      const t = performance.now();
      db.transaction(() => events.forEach((e) => writer.handle(e)));
      seedMs += performance.now() - t;
    }
    db.close();

    const logger = { debug() {}, info() {}, warn: console.warn, error: console.error };
    const openStart = performance.now();
    const store = new HistoryStore({ file, logger, driver: 'better-sqlite3', retention: { maxAgeDays: 0, maxBytes: 0 } });
    await store.start();
    const openMs = performance.now() - openStart;
    const fileMb = statSync(file).size / 2 ** 20;
    const recordedMb = store.totalBytes() / 2 ** 20;

    const raw = await openBetterSqlite(file);
    const matches = (word: string) => raw.prepare('SELECT count(*) AS n FROM executions_fts WHERE executions_fts MATCH ?').get<{ n: number }>([`"${word}"`])!.n;
    const common = matches(WORDS[7]!);
    const everywhere = matches('print');
    const deep = raw.prepare('SELECT queued_at, seq FROM executions ORDER BY queued_at DESC, seq DESC LIMIT 1 OFFSET ?').get<{ queued_at: number; seq: number }>([Math.floor(RUNS * 0.9)])!;
    raw.close();
    const deepCursor = encodeCursor({ queuedAt: deep.queued_at, seq: deep.seq });

    const rows: [string, number[]][] = [
      ['first page (50 rows)', time(() => store.list({ limit: 50 }))],
      [`page 90% deep (keyset, after ${Math.floor(RUNS * 0.9).toLocaleString('en')} rows)`, time(() => store.list({ limit: 50, cursor: deepCursor }))],
      ['filtered: status = timeout (~10%)', time(() => store.list({ limit: 50, status: 'timeout' }))],
      ['filtered: server = postgres (~8%)', time(() => store.list({ limit: 50, server: 'postgres' }))],
      ['filtered: client + status + last 7 days', time(() => store.list({ limit: 50, client: 'cursor', status: ['error', 'timeout'], from: Date.now() - 7 * DAY }))],
      ['search: a word in one run’s stdout', time(() => store.list({ search: 'xylophonist' }))],
      ['search: a word in one run’s code', time(() => store.list({ search: 'zanzibarite' }))],
      ['search: a common word (see below)', time(() => store.list({ search: WORDS[7]! }))],
      ['search: `print` (in most runs)', time(() => store.list({ search: 'print' }))],
      ['search + filter (status = error)', time(() => store.list({ search: WORDS[7]!, status: 'error' }))],
      ['search: the start of a rare word (`xyloph`)', time(() => store.list({ search: 'xyloph' }))],
      ['search: the start of a common word (`prin`)', time(() => store.list({ search: 'prin' }))],
      ['search: four letters, the start of 1 word in 128 (`prat`)', time(() => store.list({ search: 'prat' }))],
      ['search: three letters (`pra`: whole words only)', time(() => store.list({ search: 'pra' }))],
      ['search: three letters as a prefix on request (`pra*`, 1 word in 16)', time(() => store.list({ search: 'pra*' }), 5)],
      ['search: an exact word in quotes (`"print"`)', time(() => store.list({ search: '"print"' }))],
      ['detail by id (with tool calls)', time(() => store.get(`run-${String(Math.floor(RUNS / 3)).padStart(7, '0')}`))],
      ['count by status (Live/History badges)', time(() => store.countByStatus())],
      ['retention check (nothing to delete)', time(() => store.totalBytes(), 10)],
    ];
    const hits = {
      stdout: store.list({ search: 'xylophonist' }).items.length,
      code: store.list({ search: 'zanzibarite' }).items.length,
      prefix: store.list({ search: 'xyloph' }).items.length,
    };
    if (hits.stdout !== 1 || hits.code !== 1 || hits.prefix !== 1) throw new Error(`search found ${JSON.stringify(hits)}, expected one run each`);

    // Recording as the engine drives it: every event its own write (autocommit), realistic sizes.
    const recordOnly = (events: EngineEvent[], types: EngineEvent['type'][]) => {
      const t = performance.now();
      for (const e of events) if (types.includes(e.type)) store.record(e);
      return performance.now() - t;
    };
    const queuedFinished: number[] = [];
    const wholeRun: number[] = [];
    const minimal: number[] = [];
    for (let i = 0; i < RECORD_RUNS; i++) {
      queuedFinished.push(recordOnly(runEvents(RUNS + i, Date.now()), ['queued', 'finished']));
      wholeRun.push(recordOnly(runEvents(RUNS + RECORD_RUNS + i, Date.now()), ['queued', 'started', 'toolCall', 'finished']));
      const tiny = runEvents(RUNS + 2 * RECORD_RUNS + i, Date.now()).map((e) =>
        e.type === 'queued' ? { ...e, execution: { ...e.execution, code: 'print(1)' } } : e.type === 'finished' ? { ...e, result: { ...e.result, stdout: '1\n', stderr: '' } } : e,
      );
      minimal.push(recordOnly(tiny, ['queued', 'finished']));
    }
    if (store.health().writeErrors > 0) throw new Error(`history bench: ${store.health().error}`);
    store.dispose();

    // Retention: the oldest 10% by age, one batch at a time as the store does it in the background; then clear.
    const { db: pruneDb } = await openDatabase(file, openBetterSqlite);
    const retention = new HistoryRetention(pruneDb);
    const batches: number[] = [];
    const steps = retention.pruneSteps({ maxAgeDays: 27, maxBytes: 0 });
    const pruneStart = performance.now();
    let pruned = 0;
    for (let t = performance.now(), step = steps.next(); ; t = performance.now(), step = steps.next()) {
      batches.push(performance.now() - t);
      if (step.done) {
        pruned = step.value.byAge;
        break;
      }
    }
    const pruneMs = performance.now() - pruneStart;
    const left = pruneDb.prepare('SELECT count(*) AS n FROM executions').get<{ n: number }>()!.n;
    const clearStart = performance.now();
    retention.clear();
    const clearMs = performance.now() - clearStart;
    pruneDb.close();
    const clearedMb = statSync(file).size / 2 ** 20;

    const row = (label: string, v: number[]) => `| ${label} | ${ms(percentile(v, 50))} | ${ms(percentile(v, 95))} |`;
    const us = (v: number[], p: number) => (percentile(v, p) * 1000).toFixed(0);
    const mean = (v: number[]) => ((v.reduce((a, b) => a + b, 0) / v.length) * 1000).toFixed(0);
    const pct = (n: number) => `${((100 * n) / RUNS).toFixed(0)}%`;
    return [
      `### History: ${RUNS.toLocaleString('en')} runs in SQLite (better-sqlite3, WAL), p50/p95 over ${SAMPLES} queries`,
      '',
      `Seeded with code 200 B–5 KB, stdout 0–20 KB (skewed small), stderr on ~1 in 5 and tool calls on ~1 in 3 runs: ` +
        `database file ${fileMb.toFixed(0)} MiB for ${recordedMb.toFixed(0)} MiB of recorded size (what the size limit counts; ` +
        `the file is ${(fileMb / recordedMb).toFixed(2)}× that with the search index). Seeding in 5,000-run transactions: ` +
        `**${Math.round(RUNS / (seedMs / 1000)).toLocaleString('en')} runs/s** (every event through the writer, FTS included). ` +
        `Opening the store (migration check, interrupted runs, retention check): ${ms(openMs)} ms.`,
      '',
      'Targets: a listing page under 10 ms and a search under 100 ms at p50; recording adds under 1 ms to a run.',
      '',
      '| query | p50 ms | p95 ms |',
      '|---|---|---|',
      ...rows.map(([label, v]) => row(label, v)),
      '',
      `Recording a run as the engine drives it, each event its own write, ${RECORD_RUNS.toLocaleString('en')} runs each, into the ` +
        `${RUNS.toLocaleString('en')}-run database:`,
      '',
      '| recording | p50 µs | p95 µs | mean µs |',
      '|---|---|---|---|',
      `| queued insert + finished update, realistic code and output (FTS indexing included) | ${us(queuedFinished, 50)} | ${us(queuedFinished, 95)} | ${mean(queuedFinished)} |`,
      `| whole sequence: queued, started, tool calls, finished | ${us(wholeRun, 50)} | ${us(wholeRun, 95)} | ${mean(wholeRun)} |`,
      `| queued + finished of \`print(1)\` (the floor) | ${us(minimal, 50)} | ${us(minimal, 95)} | ${mean(minimal)} |`,
      '',
      `The p95 and mean include FTS5 segment merges and WAL checkpoints, which land on whichever write crosses their threshold.`,
      '',
      `Retention, deleting the oldest ${pruned.toLocaleString('en')} runs by age (each removed from the search index too): ` +
        `${(pruneMs / 1000).toFixed(1)} s in all, ${Math.round(pruned / (pruneMs / 1000)).toLocaleString('en')} runs/s, in batches of ${PRUNE_BATCH} ` +
        `that each hold the event loop ${ms(percentile(batches, 50))} ms (p50), ${ms(Math.max(...batches))} ms at most. ` +
        `"Clear history" of the remaining ${left.toLocaleString('en')} runs: ${ms(clearMs)} ms, leaving a ${clearedMb.toFixed(1)} MiB file.`,
      '',
      `Search terms matched: the stdout and code words 1 run each; the common word ${pct(common)} of runs; \`print\` ${pct(everywhere)}.`,
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
