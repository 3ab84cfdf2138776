// The host-call channel through a real container, with an echo handler standing in for the proxy.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/sandbox/engine.js';
import type { RpcHandler } from '../../../electron/sandbox/run/execution.js';
import { sandbox, startEngine } from '../helpers.js';

describe.skipIf(!sandbox.available)('RPC channel', () => {
  let engine: Engine;
  let inFlight = 0;
  let maxInFlight = 0;
  const seen: { executionId: string; payload: Record<string, unknown> }[] = [];

  const echo: RpcHandler = async (payload, ctx) => {
    seen.push({ executionId: ctx.executionId, payload });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (payload.type === 'fail') throw new Error(`Server '${String(payload.server)}' is not available`);
      if (payload.type === 'big') return { text: 'x'.repeat(Number(payload.size)) };
      if (payload.type === 'slow') await new Promise((r) => setTimeout(r, 400));
      return { echo: payload };
    } finally {
      inFlight--;
    }
  };

  beforeAll(async () => {
    engine = await startEngine({ poolSize: 1 }, { rpc: echo });
  });
  afterAll(async () => {
    await engine?.dispose();
  });

  it('round-trips a payload and tags it with the execution id', async () => {
    const handle = engine.submit({ code: 'import _sandbar\nr = await _sandbar.rpc({"type": "echo", "value": [1, "é", None]})\nprint(r)' });
    const r = await handle.result;
    expect(r.exitReason, r.stderr).toBe('success');
    expect(r.stdout).toBe("{'echo': {'type': 'echo', 'value': [1, 'é', None]}}\n");
    expect(seen.at(-1)).toEqual({ executionId: handle.id, payload: { type: 'echo', value: [1, 'é', null] } });
  });

  it('serves concurrent calls from one run at the same time', async () => {
    maxInFlight = 0;
    const r = await engine.submit({
      code: 'import asyncio, _sandbar\nres = await asyncio.gather(*[_sandbar.rpc({"type": "slow", "n": i}) for i in range(3)])\nprint([x["echo"]["n"] for x in res])',
    }).result;
    expect(r.stdout).toBe('[0, 1, 2]\n');
    expect(maxInFlight).toBe(3);
  });

  it('raises the host error inside the sandbox, and the run goes on', async () => {
    const r = await engine.submit({
      code: 'import _sandbar\ntry:\n    await _sandbar.rpc({"type": "fail", "server": "x"})\nexcept _sandbar.RpcError as e:\n    print("caught:", e)\nprint("after")',
    }).result;
    expect(r.stdout).toBe("caught: Server 'x' is not available\nafter\n");
  });

  it('delivers a 5 MB result intact (no 64 KiB frame limit)', async () => {
    const size = 5 * 1024 * 1024;
    const r = await engine.submit({
      code: `import _sandbar, hashlib\nr = await _sandbar.rpc({"type": "big", "size": ${size}})\nprint(len(r["text"]), hashlib.sha256(r["text"].encode()).hexdigest())`,
    }).result;
    const digest = createHash('sha256').update('x'.repeat(size)).digest('hex');
    expect(r.stdout).toBe(`${size} ${digest}\n`);
  });
});
