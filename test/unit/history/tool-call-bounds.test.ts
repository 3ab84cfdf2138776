// A run's tool calls in history are bounded: size_bytes counts what each call stores (server and tool
// names, the error text, cut at its cap), and past MAX_TOOL_CALLS_PER_RUN calls are counted, not kept,
// with the count in the listing, the detail and the CLI table.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatHistoryTable } from '../../../electron/history/history-cli-format.js';
import type { HistoryStore } from '../../../electron/history/history-store.js';
import { MAX_TOOL_CALLS_PER_RUN, TOOL_CALL_BYTES, TOOL_CALL_ERROR_CAP_BYTES } from '../../../electron/history/history-writer.js';
import { SCHEMA_VERSION } from '../../../electron/history/migrations.js';
import type { ToolCallRecord } from '../../../shared/execution.js';
import { openStore, rawDriver, recordRun, tempDir } from './helpers.js';

let dir: ReturnType<typeof tempDir>;
let file: string;
let store: HistoryStore;

beforeEach(async () => {
  dir = tempDir();
  file = path.join(dir.dir, 'history.db');
  store = await openStore(file, { retention: { maxAgeDays: 0, maxBytes: 0 } });
});
afterEach(() => {
  store.dispose();
  dir.cleanup();
});

async function sizeOf(id: string): Promise<number> {
  const db = await rawDriver(file);
  try {
    return db.prepare('SELECT size_bytes FROM executions WHERE id = ?').get<{ size_bytes: number }>([id])!.size_bytes;
  } finally {
    db.close();
  }
}

const calls = (n: number, tool: (i: number) => string, error?: string): Omit<ToolCallRecord, 'executionId'>[] =>
  Array.from({ length: n }, (_, i) => ({ server: 'effects', tool: tool(i), startedAt: 1_000 + i, durationMs: 1, bytesIn: 2, bytesOut: 2, isError: error !== undefined, ...(error ? { error } : {}) }));

describe('tool calls in history', () => {
  it('200 calls with long tool names grow size_bytes by what they store, not a fixed cost per call', async () => {
    const longName = (i: number) => `t${String(i).padStart(3, '0')}_${'x'.repeat(123)}`; // 128 characters
    const shortRun = recordRun(store, { servers: ['effects'], toolCalls: calls(200, (i) => `t${i}`) });
    const longRun = recordRun(store, { servers: ['effects'], toolCalls: calls(200, longName) });
    const base = recordRun(store, { servers: ['effects'] });
    const [short, long, none] = [await sizeOf(shortRun), await sizeOf(longRun), await sizeOf(base)];
    const shortNames = Array.from({ length: 200 }, (_, i) => `effects`.length + `t${i}`.length).reduce((a, b) => a + b, 0);
    expect(short - none).toBe(200 * TOOL_CALL_BYTES + shortNames);
    expect(long - none).toBe(200 * (TOOL_CALL_BYTES + 'effects'.length + 128));
    expect(long - short).toBeGreaterThan(200 * 120);
  });

  it('counts error texts, keeping each at most its cap', async () => {
    const huge = 'e'.repeat(TOOL_CALL_ERROR_CAP_BYTES * 10);
    const id = recordRun(store, { servers: ['effects'], toolCalls: calls(3, () => 'boom', huge) });
    const none = recordRun(store, { servers: ['effects'] });
    expect(store.get(id)!.toolCalls.map((c) => c.error?.length)).toEqual([TOOL_CALL_ERROR_CAP_BYTES, TOOL_CALL_ERROR_CAP_BYTES, TOOL_CALL_ERROR_CAP_BYTES]);
    expect((await sizeOf(id)) - (await sizeOf(none))).toBe(3 * (TOOL_CALL_BYTES + 'effects'.length + 'boom'.length + TOOL_CALL_ERROR_CAP_BYTES));
  });

  it(`keeps the first ${MAX_TOOL_CALLS_PER_RUN} calls of a run and counts the rest, shown with the run`, async () => {
    expect(MAX_TOOL_CALLS_PER_RUN).toBe(1000);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(7);
    const id = recordRun(store, { servers: ['effects'], toolCalls: calls(MAX_TOOL_CALLS_PER_RUN + 37, (i) => `call_${i}`) });
    const other = recordRun(store, { servers: ['effects'], toolCalls: calls(2, (i) => `call_${i}`) });
    const detail = store.get(id)!;
    expect(detail.toolCalls).toHaveLength(MAX_TOOL_CALLS_PER_RUN);
    expect(detail.toolCalls.at(-1)!.tool).toBe(`call_${MAX_TOOL_CALLS_PER_RUN - 1}`);
    expect(detail.toolCallsDropped).toBe(37);
    expect(store.get(other)!.toolCallsDropped).toBeUndefined();
    const page = store.list();
    const item = page.items.find((i) => i.id === id)!;
    expect(item).toMatchObject({ toolCallCount: MAX_TOOL_CALLS_PER_RUN, toolCallsDropped: 37 });
    const table = formatHistoryTable({ items: [item], nextCursor: null }, { formatTime: () => 'T' });
    expect(table).toContain(`${MAX_TOOL_CALLS_PER_RUN} tool calls recorded; 37 more not recorded (per-run cap)`);
    // A dropped call about a run the store never saw changes nothing.
    store.record({ type: 'toolCall', call: { executionId: 'unknown-run', server: 'fs', tool: 'x', startedAt: 1, durationMs: 1, bytesIn: 1, bytesOut: 1, isError: false } });
    expect(store.health().writeErrors).toBe(0);
  });
});
