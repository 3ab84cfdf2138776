// Work a caller can start is bounded: the queue refuses at once past its limit (concurrency 1 here), the
// proxy holds a flood of 40 × 4 MiB tool calls to a bounded host memory, and progress notifications for
// one request strictly increase, read through the SDK client's own onprogress.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sandbox } from '../helpers.js';
import { killAllChildren } from '../mcp/real-clients-helpers.js';
import { rssOf, startServed, textOf, type Served } from './serve-helpers.js';

const MiB = 1024 * 1024;

describe.skipIf(!sandbox.available)('bounded queue and progress (concurrency 1, queue limit 2)', () => {
  let s: Served;

  beforeAll(async () => {
    s = await startServed({ settings: { concurrency: 1, queueLimit: 2 } });
  });

  afterAll(async () => {
    await s?.stop();
    killAllChildren();
  });

  it('refuses runs beyond the queue at once with isError and "busy", and runs the rest', async () => {
    const client = await s.mcp();
    const order: string[] = [];
    const calls = Array.from({ length: 6 }, (_, i) =>
      (client.callTool({ name: 'run_python', arguments: { code: `import time\ntime.sleep(1.5)\nprint("done ${i}")` } }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>).then(
        (r) => {
          order.push(r.isError ? 'busy' : 'ran');
          return r;
        },
      ),
    );
    const results = await Promise.all(calls);
    const busy = results.filter((r) => r.isError);
    expect(busy).toHaveLength(3);
    for (const r of busy) {
      expect(textOf(r)).toContain('busy');
      expect(textOf(r)).toContain('2 runs are already waiting (queue limit 2)');
    }
    expect(results.filter((r) => !r.isError).map((r) => textOf(r).match(/done \d/)?.[0])).toHaveLength(3);
    // The refusals came back while the first run was still going, not after waiting their turn.
    expect(order.slice(0, 3)).toEqual(['busy', 'busy', 'busy']);
  });

  it('sends strictly increasing progress for a run that waits in the queue and then runs', async () => {
    const client = await s.mcp();
    const blocker = client.callTool({ name: 'run_python', arguments: { code: 'import time\ntime.sleep(2)' } }, undefined, { timeout: 120_000 });
    await new Promise((r) => setTimeout(r, 300));
    const seen: { progress: number; message?: string }[] = [];
    const result = (await client.callTool({ name: 'run_python', arguments: { code: 'import time\ntime.sleep(2.5)\nprint("ok")' } }, undefined, {
      timeout: 120_000,
      onprogress: (p) => seen.push({ progress: p.progress, ...(p.message ? { message: p.message } : {}) }),
    })) as CallToolResult;
    await blocker;
    expect(textOf(result)).toContain('ok');
    expect(seen[0]?.message).toMatch(/^queued/);
    expect(seen.some((p) => p.message?.startsWith('running'))).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress, JSON.stringify(seen)).toBeGreaterThan(seen[i - 1]!.progress);
  });
});

describe.skipIf(!sandbox.available)('bounded proxy', () => {
  let s: Served;

  beforeAll(async () => {
    s = await startServed();
  });

  afterAll(async () => {
    await s?.stop();
    killAllChildren();
  });

  it('holds 40 concurrent 4 MiB echo calls through server-everything within +100 MiB of host memory', async () => {
    const client = await s.mcp();
    // Warm up: the server is started and the modules a proxied call needs are loaded before the baseline.
    const warm = (await client.callTool({ name: 'run_python', arguments: { code: 'print((await mcp_everything.echo(message="hi"))["content"][0]["text"])', servers: ['everything'] } })) as CallToolResult;
    expect(textOf(warm)).toContain('Echo: hi');
    global.gc?.();
    await new Promise((r) => setTimeout(r, 500));
    const baseline = rssOf(s.serve.pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(s.serve.pid))), 20);
    try {
      const code = `
import asyncio
big = "x" * (4 * 1024 * 1024)
replies = await asyncio.gather(*[mcp_everything.echo(message=big) for _ in range(40)])
print(len(replies), sum(len(r["content"][0]["text"]) for r in replies))
`;
      const flood = (await client.callTool({ name: 'run_python', arguments: { code, servers: ['everything'], timeout: 120 } }, undefined, { timeout: 180_000 })) as CallToolResult;
      expect(flood.isError, textOf(flood).slice(0, 500)).toBe(false);
      expect(textOf(flood)).toContain(`40 ${40 * (4 * MiB + 'Echo: '.length)}`);
    } finally {
      clearInterval(sampler);
    }
    const grew = peak - baseline;
    console.info(`[bounded proxy] host RSS ${(baseline / MiB).toFixed(0)} → ${(peak / MiB).toFixed(0)} MiB (+${(grew / MiB).toFixed(0)} MiB) under 40 × 4 MiB calls`);
    expect(grew, `host RSS ${Math.round(baseline / MiB)} → ${Math.round(peak / MiB)} MiB`).toBeLessThan(100 * MiB);
  });
});
