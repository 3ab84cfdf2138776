// A SandbarApi double for the History store and view: serves generated runs with real keyset paging and
// the server's filters, records every call, emits events on demand, and can hold answers back.
import type { EventName, Events, HistoryFacets, MethodArgs, SandbarApi } from '../../../../shared/contract.js';
import type { ExitReason } from '../../../../shared/execution.js';
import type { HistoryDetail, HistoryItem } from '../../../../shared/history.js';
import { DEFAULT_LIMITS } from '../../../../shared/limits.js';

const STATUSES: ExitReason[] = ['success', 'success', 'success', 'error', 'timeout', 'memory', 'cancelled'];
const CLIENTS = ['claude-code', 'cursor', 'cli'];
const SERVERS = ['filesystem', 'github', 'postgres'];
export const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);

/** `n` runs, newest first, one a second before T0. Run k is `run-k` (k = 0 is the newest). */
export function makeItems(n: number): HistoryItem[] {
  return Array.from({ length: n }, (_, k) => {
    const status = STATUSES[k % STATUSES.length]!;
    const queuedAt = T0 - k * 1000;
    return {
      id: `run-${k}`,
      client: { name: CLIENTS[k % CLIENTS.length]!, version: null },
      transport: null,
      codePreview: `print(${k})\nvalue_${k} = compute(${k})`,
      servers: k % 4 === 0 ? [SERVERS[k % SERVERS.length]!] : [],
      status,
      exitReason: status,
      exitCode: status === 'success' ? 0 : 1,
      queuedAt,
      startedAt: queuedAt + 5,
      finishedAt: queuedAt + 105,
      durationMs: 100,
      error: null,
      toolCallCount: 0,
    };
  });
}

export function detailOf(item: HistoryItem): HistoryDetail {
  const { codePreview, snippet: _snippet, ...rest } = item;
  return {
    ...rest,
    code: codePreview,
    limits: DEFAULT_LIMITS,
    timeoutSec: 30,
    stdout: 'out\n',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    containerName: null,
    toolCalls: [],
    artifacts: [],
    refusedArtifacts: [],
    packages: null,
    approvals: [],
    folders: [],
    egress: [],
    egressDropped: 0,
  };
}

interface Call {
  method: string;
  args: Record<string, unknown>;
}

export class FakeHistoryApi {
  readonly calls: Call[] = [];
  readonly listeners = new Map<string, Set<(data: unknown) => void>>();
  private held: (() => void)[] = [];
  holding = false;
  /** When set, `executions.list` fails with this message. */
  listError: string | null = null;
  rerunId = 'run-new';
  /** Details to answer instead of the generated ones, by id. */
  readonly details = new Map<string, HistoryDetail>();
  /** Stored artifact bytes by `runId/name`, as `executions.artifact` answers them (base64). */
  readonly artifacts = new Map<string, { mimeType: string; data: string }>();

  constructor(
    public items: HistoryItem[],
    public facets: HistoryFacets = { clients: CLIENTS, servers: SERVERS, statuses: ['success', 'error', 'timeout', 'memory', 'cancelled'] },
  ) {}

  readonly api: SandbarApi = {
    call: ((method: string, args: Record<string, unknown>) => {
      this.calls.push({ method, args });
      const answer = () => this.answer(method, args);
      if (!this.holding) return Promise.resolve().then(answer);
      return new Promise<unknown>((resolve, reject) => this.held.push(() => Promise.resolve().then(answer).then(resolve, reject)));
    }) as SandbarApi['call'],
    on: ((event: string, listener: (data: unknown) => void) => {
      const set = this.listeners.get(event) ?? new Set();
      set.add(listener);
      this.listeners.set(event, set);
      return () => set.delete(listener);
    }) as SandbarApi['on'],
  };

  listCalls(): MethodArgs<'executions.list'>[] {
    return this.calls.filter((c) => c.method === 'executions.list').map((c) => c.args as MethodArgs<'executions.list'>);
  }

  emit<E extends EventName>(event: E, data: Events[E]): void {
    for (const l of this.listeners.get(event) ?? []) l(data);
  }

  /** Answers every held call, in order (or last call first). */
  release(order: 'in-order' | 'reversed' = 'in-order'): void {
    this.holding = false;
    const held = this.held.splice(0);
    for (const go of order === 'reversed' ? held.reverse() : held) go();
  }

  private answer(method: string, args: Record<string, unknown>): unknown {
    switch (method) {
      case 'executions.list':
        if (this.listError) throw Object.assign(new Error(this.listError), { code: 'internal' });
        return this.list(args as MethodArgs<'executions.list'>);
      case 'executions.facets':
        return this.facets;
      case 'executions.get': {
        const given = this.details.get(String(args.id));
        if (given) return given;
        const item = this.items.find((i) => i.id === args.id);
        return item ? detailOf(item) : null;
      }
      case 'executions.rerun':
        return { id: this.rerunId };
      case 'executions.artifact': {
        const found = this.artifacts.get(`${String(args.runId)}/${String(args.name)}`);
        if (!found) throw Object.assign(new Error(`No artifact '${String(args.name)}' of execution ${String(args.runId)} in the history`), { code: 'invalid_request' });
        return { name: args.name, size: Buffer.from(found.data, 'base64').length, ...found };
      }
      default:
        throw Object.assign(new Error(`not faked: ${method}`), { code: 'internal' });
    }
  }

  private list(q: MethodArgs<'executions.list'>) {
    const term = q.search?.toLowerCase();
    let rows = this.items.filter(
      (i) =>
        (!q.status?.length || q.status.includes(i.status)) &&
        (q.client === undefined || i.client.name === q.client) &&
        (q.server === undefined || i.servers.includes(q.server)) &&
        (q.from === undefined || i.queuedAt >= q.from) &&
        (q.to === undefined || i.queuedAt < q.to) &&
        (term === undefined || i.codePreview.toLowerCase().includes(term)),
    );
    const start = q.cursor ? Number(q.cursor) : 0;
    const limit = q.limit ?? 50;
    rows = rows.slice(start, start + limit + 1);
    const more = rows.length > limit;
    const items = rows.slice(0, limit).map((i) => (term ? { ...i, snippet: [{ text: 'print(', hit: false }, { text: term, hit: true }] } : i));
    return { items, nextCursor: more ? String(start + limit) : null };
  }
}

/** Lets every pending promise callback run (microtasks only, so it also works under fake timers). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** The `execution.finished` event of a run queued at `queuedAt`. */
export function finishedEvent(id: string, over: Partial<Events['execution.finished']['result']> = {}): Events['execution.finished'] {
  const queuedAt = over.queuedAt ?? T0 + 60_000;
  return {
    result: {
      id,
      exitReason: 'success',
      exitCode: 0,
      stdoutTruncated: false,
      stderrTruncated: false,
      timeoutSec: 30,
      limits: DEFAULT_LIMITS,
      queuedAt,
      startedAt: queuedAt + 5,
      finishedAt: queuedAt + 205,
      durationMs: 200,
      code: `print("${id}")`,
      servers: [],
      client: { name: 'claude-code', version: '2.1.0' },
      ...over,
    },
  };
}
