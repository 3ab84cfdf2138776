// History through the real engine and real containers: each kind of ending makes exactly one row with the
// right fields, and proxied tool calls are recorded with their run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_FILE, HistoryStore } from '../../../electron/history/history-store.js';
import { createLogger } from '../../../electron/logger.js';
import type { Engine } from '../../../electron/sandbox/engine.js';
import type { ExecutionRequest } from '../../../shared/execution.js';
import { sandbox, startEngine } from '../helpers.js';
import { EVERYTHING, proxyFixture, stdioServer, type ProxyFixture } from '../proxy/proxy-helpers.js';

describe.skipIf(!sandbox.available)('history of real runs', () => {
  let engine: Engine;
  let store: HistoryStore;
  let fx: ProxyFixture;

  beforeAll(async () => {
    engine = await startEngine({ poolSize: 2 });
    store = new HistoryStore({
      file: path.join(mkdtempSync(path.join(tmpdir(), 'sandbar-history-')), HISTORY_FILE),
      logger: createLogger('history', { SANDBAR_LOG_LEVEL: 'error' }),
      currentLimits: () => engine.currentConfig.limits,
    });
    await store.start();
    engine.subscribe((e) => store.record(e));
    fx = await proxyFixture(engine, [stdioServer('everything', EVERYTHING, ['stdio'])]);
  });
  afterAll(async () => {
    await fx?.close();
    await engine?.dispose();
    store?.dispose();
  });

  async function recorded(request: ExecutionRequest, cancelAfterMs?: number) {
    const handle = engine.submit({ client: { name: 'vitest', version: '1', transport: 'cli' }, ...request });
    if (cancelAfterMs !== undefined) setTimeout(() => engine.cancel(handle.id), cancelAfterMs);
    await handle.result;
    return store.get(handle.id)!;
  }

  it('records success, error, timeout, memory, cancelled and output-limit runs, one row each', async () => {
    const before = store.list({ limit: 500 }).items.length;
    const success = await recorded({ code: 'print("fine")' });
    expect(success).toMatchObject({ status: 'success', exitReason: 'success', exitCode: 0, stdout: 'fine\n', code: 'print("fine")', client: { name: 'vitest', version: '1' } });
    expect(success.limits?.memory).toBe('512m');
    expect(success.startedAt).not.toBeNull();
    expect(success.durationMs).toBeGreaterThanOrEqual(0);

    const error = await recorded({ code: 'raise ValueError("bad")' });
    expect(error).toMatchObject({ status: 'error', exitReason: 'error', exitCode: 1, error: 'Sandbox exited with code 1' });
    expect(error.stderr).toContain('ValueError: bad');

    const timeout = await recorded({ code: 'import time\ntime.sleep(30)', timeoutSec: 1 });
    expect(timeout).toMatchObject({ status: 'timeout', exitReason: 'timeout', error: 'Execution timed out after 1s', timeoutSec: 1 });

    const memory = await recorded({ code: 'b = bytearray(2 * 1024 ** 3)' });
    expect(memory).toMatchObject({ status: 'memory', exitReason: 'memory', exitCode: 137, error: 'killed: memory limit 512m reached' });

    const cancelled = await recorded({ code: 'import time\nprint("started", flush=True)\ntime.sleep(30)' }, 1500);
    expect(cancelled).toMatchObject({ status: 'cancelled', exitReason: 'cancelled' });

    const flood = await recorded({ code: 'import sys\nwhile True:\n    sys.stdout.write("y" * 65536)' });
    expect(flood).toMatchObject({ status: 'output_limit', exitReason: 'output_limit', stdoutTruncated: true });

    const ids = [success, error, timeout, memory, cancelled, flood].map((r) => r.id);
    const listed = store.list({ limit: 500 }).items;
    expect(listed.length - before).toBe(6);
    expect(listed.filter((i) => ids.includes(i.id))).toHaveLength(6);
    expect(store.list({ status: ['memory'], limit: 50 }).items.map((i) => i.id)).toContain(memory.id);
  });

  it('records the proxied tool calls of a run, searchable by its output', async () => {
    const r = await fx.run('print((await mcp_everything.echo(message="zebracorn"))["content"][0]["text"])', ['everything']);
    expect(r.isError).toBe(false);
    const found = store.list({ search: 'zebracorn', limit: 5 }).items;
    expect(found).toHaveLength(1);
    const detail = store.get(found[0]!.id)!;
    expect(detail.servers).toEqual(['everything']);
    expect(detail.toolCalls).toHaveLength(1);
    expect(detail.toolCalls[0]).toMatchObject({ server: 'everything', tool: 'echo', isError: false });
  });
});
