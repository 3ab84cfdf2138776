// An in-browser stand-in for the history side of the control API, for looking at and benchmarking the
// History view without a server: N deterministic runs (row i is generated from i on demand, so opening
// the page costs nothing), keyset-style cursors, the server's filters, substring search with snippets,
// details with output and tool calls, re-runs that go queued → running → finished, and live runs.
import type { EventName, Events, FinishedExecution, HistoryFacets, MethodArgs } from '../../../shared/contract.js';
import type { ExitReason } from '../../../shared/execution.js';
import type { HistoryDetail, HistoryItem, HistoryPage, HistoryStatus, HistoryToolCall, SnippetPart } from '../../../shared/history.js';
import type { Limits } from '../../../shared/limits.js';

const LIMITS: Limits = {
  memory: '512m',
  pids: 128,
  cpus: null,
  timeoutSec: 30,
  maxTimeoutSec: 120,
  outputCapBytes: 1024 ** 2,
  tmpSize: '64m',
  workspaceSize: '128m',
  user: '65534:65534',
};
const CLIENTS = [
  { name: 'claude-code', version: '2.1.0', transport: 'http' },
  { name: 'cursor', version: '1.4.2', transport: 'http' },
  { name: 'claude-desktop', version: '0.12.1', transport: 'stdio' },
  { name: 'cli', version: null, transport: 'cli' },
] as const;
const SERVERS = ['filesystem', 'github', 'postgres', 'slack', 'everything'];
const TOOLS: Record<string, string[]> = {
  filesystem: ['read_file', 'list_directory', 'search_files'],
  github: ['search_issues', 'get_pull_request', 'list_commits'],
  postgres: ['query'],
  slack: ['post_message', 'list_channels'],
  everything: ['echo', 'add', 'longRunningOperation'],
};
/** Weighted like real use: mostly successes, some errors, a few of everything else. */
const REASONS: ExitReason[] = ['success', 'success', 'success', 'success', 'success', 'success', 'success', 'error', 'error', 'timeout', 'memory', 'cancelled', 'output_limit'];
const PROGRAMS = [
  (i: number, s: string | undefined) =>
    `import json\nfrom pathlib import Path\n\n# Summarise the sales export\nrows = json.loads(Path("/workspace/sales-${i % 97}.json").read_text())\ntotal = sum(r["amount"] for r in rows)\nprint(f"{len(rows)} rows, total {total:.2f}")` +
    (s ? `\n\nfiles = await mcp_${s}.list_directory(path="/data")\nprint(files)` : ''),
  (i: number, s: string | undefined) =>
    `import statistics as st\n\nvalues = [${i % 13}, ${(i * 7) % 31}, ${(i * 3) % 17}, 42]\nprint("mean", st.mean(values), "stdev", round(st.stdev(values), 3))` +
    (s ? `\nissues = await mcp_${s}.search_issues(query="is:open label:bug")\nfor issue in issues[:5]:\n    print(issue["title"])` : ''),
  (i: number, s: string | undefined) =>
    `def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\n# Fibonacci numbers for the report\nprint([fib(k) for k in range(${10 + (i % 20)})])` +
    (s ? `\nawait mcp_${s}.post_message(channel="#reports", text="done")` : ''),
  (i: number, s: string | undefined) =>
    `import re, collections\n\ntext = open("/workspace/notes-${i % 50}.txt").read()\nwords = collections.Counter(re.findall(r"[a-z']+", text.lower()))\nprint(words.most_common(10))` +
    (s ? `\nresult = await mcp_${s}.query(sql="select count(*) from orders where day = current_date")\nprint(result)` : ''),
];

/** A fast integer hash, so row i always gets the same attributes. */
function hash(i: number, salt: number): number {
  let h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b) ^ salt;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export interface HistoryBackendOptions {
  rows: number;
  /** Newest run's queue time (epoch ms); runs are spaced so N of them cover 30 days. */
  now?: number;
  /** Milliseconds every call waits before answering (a network or database stand-in). */
  latencyMs?: number;
}

export class HistoryBackend {
  readonly rows: number;
  private readonly now: number;
  private readonly step: number;
  private readonly latencyMs: number;
  /** Runs that happened after the page loaded (re-runs, live runs), newest first. */
  private readonly fresh: { seq: number; detail: HistoryDetail }[] = [];
  private readonly listeners = new Map<string, Set<(data: unknown) => void>>();
  private counter = 0;

  constructor(options: HistoryBackendOptions) {
    this.rows = options.rows;
    this.now = options.now ?? Date.now();
    this.step = Math.max(1000, Math.floor((30 * 24 * 3600 * 1000) / Math.max(1, options.rows)));
    this.latencyMs = options.latencyMs ?? 0;
  }

  on<E extends EventName>(event: E, listener: (data: Events[E]) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener as (data: unknown) => void);
    this.listeners.set(event, set);
    return () => set.delete(listener as (data: unknown) => void);
  }

  private emit<E extends EventName>(event: E, data: Events[E]): void {
    for (const l of this.listeners.get(event) ?? []) l(data);
  }

  handles(method: string): boolean {
    return ['executions.list', 'executions.get', 'executions.facets', 'executions.rerun'].includes(method);
  }

  async call(method: string, args: Record<string, unknown>): Promise<unknown> {
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
    switch (method) {
      case 'executions.list':
        return this.list(args as MethodArgs<'executions.list'>);
      case 'executions.get':
        return this.get(String(args.id));
      case 'executions.facets':
        return this.facets();
      case 'executions.rerun':
        return this.rerun(String(args.id));
      default:
        throw Object.assign(new Error(`not offered: ${method}`), { code: 'internal' });
    }
  }

  /** Row i of the seeded history (0 = newest). */
  detailAt(i: number): HistoryDetail {
    const status = REASONS[hash(i, 1) % REASONS.length]!;
    const client = CLIENTS[hash(i, 2) % CLIENTS.length]!;
    const server = hash(i, 3) % 5 < 2 ? SERVERS[hash(i, 4) % SERVERS.length] : undefined;
    const code = PROGRAMS[hash(i, 5) % PROGRAMS.length]!(i, server);
    const queuedAt = this.now - i * this.step - (hash(i, 6) % 800);
    const startedAt = queuedAt + 3 + (hash(i, 7) % 40);
    const durationMs =
      status === 'timeout' ? LIMITS.timeoutSec * 1000 : status === 'cancelled' ? 400 + (hash(i, 8) % 3000) : 60 + (hash(i, 8) % (hash(i, 9) % 7 === 0 ? 20_000 : 2500));
    const toolCalls: HistoryToolCall[] = [];
    if (server) {
      const n = 1 + (hash(i, 10) % 6);
      for (let k = 0; k < n; k++) {
        const tools = TOOLS[server]!;
        const at = Math.floor(((k + 0.2) / (n + 0.5)) * durationMs);
        const failed = hash(i, 20 + k) % 9 === 0;
        toolCalls.push({
          server,
          tool: tools[hash(i, 30 + k) % tools.length]!,
          startedAt: startedAt + at,
          durationMs: 5 + (hash(i, 40 + k) % Math.max(10, Math.floor(durationMs / (n + 1)))),
          isError: failed,
          bytesIn: 60 + (hash(i, 50 + k) % 400),
          bytesOut: failed ? 120 : 200 + (hash(i, 60 + k) % 60_000),
          error: failed && k % 2 === 0 ? `${server} did not answer within 10s` : null,
        });
      }
    }
    const stdout =
      status === 'timeout' ? 'processing batch 1\nprocessing batch 2\n' : `${(hash(i, 11) % 900) + 10} rows, total ${((hash(i, 12) % 1_000_000) / 100).toFixed(2)}\n`;
    const stderr =
      status === 'error'
        ? `Traceback (most recent call last):\n  File "/workspace/main.py", line 4, in <module>\n    rows = json.loads(Path("/workspace/sales.json").read_text())\nFileNotFoundError: [Errno 2] No such file or directory: '/workspace/sales.json'\n`
        : status === 'memory'
          ? 'Killed\n'
          : '';
    const error =
      status === 'timeout'
        ? `Execution timed out after ${LIMITS.timeoutSec}s`
        : status === 'memory'
          ? 'The run was killed: it exceeded the 512m memory limit'
          : status === 'output_limit'
            ? 'Output exceeded 1 MiB; the run was stopped'
            : null;
    return {
      id: `r${(0x5a17 * 65536 + this.rows - i).toString(16)}`,
      client: { name: client.name, version: client.version },
      transport: client.transport,
      servers: server ? [server] : [],
      status,
      exitReason: status,
      exitCode: status === 'success' ? 0 : status === 'error' ? 1 : status === 'memory' ? 137 : null,
      queuedAt,
      startedAt,
      finishedAt: startedAt + durationMs,
      durationMs,
      error,
      code,
      limits: LIMITS,
      timeoutSec: LIMITS.timeoutSec,
      stdout,
      stderr,
      stdoutTruncated: status === 'output_limit',
      stderrTruncated: false,
      containerName: `sandbar-${i.toString(36)}`,
      toolCallCount: toolCalls.length,
      toolCalls,
      artifacts: [],
      refusedArtifacts: [],
      packages: null,
      approvals: [],
      folders: [],
      egress: [],
      egressDropped: 0,
    };
  }

  private itemOf(d: HistoryDetail, snippet?: SnippetPart[]): HistoryItem {
    const { code, limits: _l, timeoutSec: _t, stdout: _o, stderr: _e, stdoutTruncated: _a, stderrTruncated: _b, containerName: _c, toolCalls: _tc, ...rest } = d;
    return { ...rest, codePreview: code.slice(0, 300), ...(snippet ? { snippet } : {}) };
  }

  /** Cheap per-row checks first (no text built), then search over code and output. */
  private list(q: MethodArgs<'executions.list'>): HistoryPage {
    const limit = Math.min(500, q.limit ?? 50);
    const statuses = q.status?.length ? new Set(q.status as HistoryStatus[]) : null;
    const term = q.search?.trim().toLowerCase() || null;
    const matches = (d: HistoryDetail): SnippetPart[] | true | null => {
      if (statuses && !statuses.has(d.status)) return null;
      if (q.client !== undefined && d.client.name !== q.client) return null;
      if (q.server !== undefined && !d.servers.includes(q.server)) return null;
      if (q.from !== undefined && d.queuedAt < q.from) return null;
      if (q.to !== undefined && d.queuedAt >= q.to) return null;
      if (term === null) return true;
      return snippetFor(`${d.code}\n${d.stdout}\n${d.stderr}`, term);
    };
    // Keyset-like cursors, stable while new runs arrive: `f<seq>` continues among the runs that arrived
    // after the page loaded (older than seq), `s<i>` among the seeded rows from row i.
    const items: HistoryItem[] = [];
    /** False when the page is full and `d` matches: the next page starts at `d`. */
    const take = (d: HistoryDetail): boolean => {
      const m = matches(d);
      if (!m) return true;
      if (items.length === limit) return false;
      items.push(this.itemOf(d, m === true ? undefined : m));
      return true;
    };
    const cursor = q.cursor ?? 'f' + Number.MAX_SAFE_INTEGER;
    let seededFrom = 0;
    if (cursor.startsWith('f')) {
      const below = Number(cursor.slice(1));
      for (const { seq, detail } of this.fresh) {
        if (seq >= below) continue;
        if (!take(detail)) return { items, nextCursor: `f${seq + 1}` };
      }
    } else {
      seededFrom = Number(cursor.slice(1));
    }
    for (let i = seededFrom; i < this.rows; i++) {
      if (!take(this.detailAt(i))) return { items, nextCursor: `s${i}` };
    }
    return { items, nextCursor: null };
  }

  private get(id: string): HistoryDetail | null {
    const f = this.fresh.find((x) => x.detail.id === id);
    if (f) return f.detail;
    const m = /^r([0-9a-f]+)$/.exec(id);
    if (!m) return null;
    const i = this.rows - (parseInt(m[1]!, 16) - 0x5a17 * 65536);
    return i >= 0 && i < this.rows ? this.detailAt(i) : null;
  }

  private facets(): HistoryFacets {
    return { clients: CLIENTS.map((c) => c.name).sort(), servers: [...SERVERS].sort(), statuses: [...new Set(REASONS)] };
  }

  private rerun(id: string): { id: string } {
    const from = this.get(id);
    if (!from) throw Object.assign(new Error('That run is not in the history.'), { code: 'invalid_request' });
    return { id: this.startRun(from.code, from.servers, { name: 'panel', version: null }, from.status === 'success' ? 'success' : 'error') };
  }

  /** A new run: queued now, running shortly after, finished a second later. */
  startRun(code: string, servers: string[], client: { name: string; version: string | null }, outcome: ExitReason = 'success'): string {
    const id = `live-${(++this.counter).toString().padStart(4, '0')}-${Date.now().toString(36)}`;
    const queuedAt = Date.now();
    const detail: HistoryDetail = {
      ...this.detailAt(0),
      id,
      client,
      transport: client.name === 'panel' ? 'panel' : 'http',
      code,
      servers,
      status: 'queued',
      exitReason: null,
      exitCode: null,
      queuedAt,
      startedAt: null,
      finishedAt: null,
      durationMs: null,
      error: null,
      toolCalls: [],
      toolCallCount: 0,
    };
    this.fresh.unshift({ seq: this.counter, detail });
    this.emit('execution.queued', { type: 'queued', position: 0, execution: { id, code, servers, client: { name: client.name, ...(client.version ? { version: client.version } : {}) }, timeoutSec: 30, queuedAt } });
    setTimeout(() => {
      Object.assign(detail, { status: 'running', startedAt: Date.now() });
      this.emit('execution.started', { type: 'started', id, at: detail.startedAt!, containerName: `sandbar-${id}`, warm: true });
    }, 150);
    setTimeout(() => {
      const finishedAt = Date.now();
      Object.assign(detail, { status: outcome, exitReason: outcome, exitCode: outcome === 'success' ? 0 : 1, finishedAt, durationMs: finishedAt - detail.startedAt! });
      const result: FinishedExecution = {
        id,
        exitReason: outcome,
        exitCode: detail.exitCode,
        stdoutTruncated: false,
        stderrTruncated: false,
        timeoutSec: 30,
        limits: LIMITS,
        queuedAt,
        startedAt: detail.startedAt,
        finishedAt,
        durationMs: detail.durationMs!,
        code,
        servers,
        client: { name: client.name, ...(client.version ? { version: client.version } : {}) },
      };
      this.emit('execution.finished', { result });
    }, 1200);
    return id;
  }
}

/** Every occurrence of `term` in a window around the first one, as snippet parts; null when absent. */
export function snippetFor(text: string, term: string): SnippetPart[] | null {
  const lower = text.toLowerCase();
  const first = lower.indexOf(term);
  if (first < 0) return null;
  const start = Math.max(0, first - 40);
  const end = Math.min(text.length, first + term.length + 80);
  const parts: SnippetPart[] = [];
  let at = start;
  for (let hit = first; hit !== -1 && hit + term.length <= end; hit = lower.indexOf(term, hit + term.length)) {
    if (hit > at) parts.push({ text: text.slice(at, hit), hit: false });
    parts.push({ text: text.slice(hit, hit + term.length), hit: true });
    at = hit + term.length;
  }
  if (at < end) parts.push({ text: text.slice(at, end), hit: false });
  if (start > 0) parts.unshift({ text: '…', hit: false });
  if (end < text.length) parts.push({ text: '…', hit: false });
  return parts;
}
