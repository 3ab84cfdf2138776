// Seeds `<home>/history.db` with N realistic finished runs through the real HistoryWriter, so `sandbar
// serve` with SANDBAR_HOME=<home> opens a History of that size. Deterministic: the same N, the same rows.
//   node --import tsx test/bench/panel-history/seed-history.ts /tmp/sandbar-100k 100000
import path from 'node:path';
import type { EngineEvent, ExitReason } from '../../../shared/execution.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';
import { openBetterSqlite } from '../../../electron/history/better-sqlite-driver.js';
import { HISTORY_FILE } from '../../../electron/history/history-store.js';
import { HistoryWriter } from '../../../electron/history/history-writer.js';
import { openDatabase } from '../../../electron/history/open-database.js';
import { prng } from '../stats.js';

const DAY = 24 * 3600 * 1000;
const REASONS: ExitReason[] = ['success', 'success', 'success', 'success', 'success', 'success', 'success', 'error', 'error', 'timeout', 'memory', 'cancelled'];
const CLIENTS = [
  { name: 'claude-code', version: '2.1.0', transport: 'http' as const },
  { name: 'cursor', version: '1.4.2', transport: 'http' as const },
  { name: 'claude-desktop', version: '0.12.1', transport: 'stdio' as const },
  { name: 'cli', transport: 'cli' as const },
];
const SERVERS = ['filesystem', 'github', 'postgres', 'slack', 'everything'];
const WORDS = ['revenue', 'orders', 'latency', 'invoice', 'cohort', 'churn', 'backlog', 'refund', 'signup', 'forecast', 'quota', 'region'];


function runEvents(i: number, queuedAt: number, rand: () => number): EngineEvent[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const id = `seed-${String(i).padStart(7, '0')}`;
  const word = pick(WORDS);
  const server = rand() < 0.4 ? pick(SERVERS) : null;
  const code = [
    'import json, statistics',
    `# ${word} report ${i}`,
    `values = [${Array.from({ length: 6 }, () => Math.floor(rand() * 1000)).join(', ')}]`,
    `print("${word}", statistics.mean(values), max(values))`,
    ...(server ? [`result = await mcp_${server}.query(q="${word}")`, 'print(json.dumps(result)[:200])'] : []),
  ].join('\n');
  const exitReason = pick(REASONS);
  const startedAt = queuedAt + 3;
  const durationMs = exitReason === 'timeout' ? 30_000 : 40 + Math.floor(rand() ** 2 * 4000);
  const events: EngineEvent[] = [
    { type: 'queued', execution: { id, code, servers: server ? [server] : [], client: pick(CLIENTS), timeoutSec: 30, queuedAt }, position: 0 },
    { type: 'started', id, at: startedAt, containerName: `sandbar-seed-${i}`, warm: true },
  ];
  if (server) {
    for (let c = 0, n = 1 + Math.floor(rand() * 4); c < n; c++) {
      const isError = rand() < 0.1;
      events.push({
        type: 'toolCall',
        call: { executionId: id, server, tool: 'query', startedAt: startedAt + Math.floor(((c + 0.3) / (n + 0.5)) * durationMs), durationMs: 5 + Math.floor(rand() * 200), bytesIn: 80 + Math.floor(rand() * 300), bytesOut: Math.floor(rand() * 40_000), isError, ...(isError ? { error: `${server} did not answer` } : {}) },
      });
    }
  }
  events.push({
    type: 'finished',
    result: {
      id, exitReason, exitCode: exitReason === 'success' ? 0 : exitReason === 'error' ? 1 : exitReason === 'memory' ? 137 : null,
      stdout: `${word} ${(rand() * 1000).toFixed(2)} ${Math.floor(rand() * 1000)}\n`,
      stderr: exitReason === 'error' ? `Traceback (most recent call last):\n  File "<run>", line 4\nValueError: bad ${word}\n` : '',
      stdoutTruncated: false, stderrTruncated: false, timeoutSec: 30, limits: DEFAULT_LIMITS, queuedAt, startedAt,
      finishedAt: startedAt + durationMs, durationMs, ...(exitReason === 'timeout' ? { message: 'Execution timed out after 30s' } : {}),
    },
  });
  return events;
}

/** Writes `runs` runs spread over the last 29 days into `<home>/history.db` (created if absent). */
export async function seedHistory(home: string, runs: number): Promise<{ file: string; ms: number }> {
  const file = path.join(home, HISTORY_FILE);
  const started = performance.now();
  const { db } = await openDatabase(file, openBetterSqlite);
  try {
    const writer = new HistoryWriter(db, { identity: { host: 'panel-history-seed', pid: process.pid } });
    const rand = prng(7);
    const now = Date.now();
    // 29 days, so the default retention (30 days) keeps every one of them.
    const step = (29 * DAY) / runs;
    const BATCH = 5000;
    for (let from = 0; from < runs; from += BATCH) {
      const events = Array.from({ length: Math.min(BATCH, runs - from) }, (_, k) => runEvents(from + k, Math.floor(now - 29 * DAY + (from + k) * step), rand)).flat();
      db.transaction(() => events.forEach((e) => writer.handle(e)));
    }
  } finally {
    db.close();
  }
  return { file, ms: performance.now() - started };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const [home, runs = '100000'] = process.argv.slice(2);
  if (!home) {
    console.error('usage: seed-history.ts <SANDBAR_HOME folder> [runs]');
    process.exit(2);
  }
  const { file, ms } = await seedHistory(home, Number(runs));
  console.log(`seeded ${Number(runs).toLocaleString('en')} runs into ${file} in ${(ms / 1000).toFixed(1)} s`);
}
