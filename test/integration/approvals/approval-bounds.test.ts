// What a person is asked, and for how long a run may wait on it, end to end: a real app on a real runtime,
// SDK clients over HTTP (one that answers elicitations), the CLI, and the effects fixture server whose tools
// count what really happened. Forged tool names never become questions; what a question shows carries no
// raw controls; held time is bounded (timeout + approvalTimeoutSec), the container is frozen while its
// only call waits, identical calls are one question, a deny is remembered, and questions per run are capped.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUESTIONS_PER_RUN } from '../../../electron/proxy/approval-broker.js';
import { UNLISTED_TOOL } from '../../../electron/proxy/server-manager.js';
import type { PendingApproval } from '../../../shared/approvals.js';
import { runtimeBinary, sandbox, waitFor } from '../helpers.js';
import { startTestApp, type TestApp } from '../control/control-helpers.js';

const FIXTURE = path.resolve('test/fixtures/effects-mcp-server.mjs');
/** Anything a terminal obeys or a renderer hides. */
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;
const APPROVAL_TIMEOUT_SEC = 8;

/** Whether the runtime's record says the container is paused (with runc or crun, the OCI runtime's own state). */
async function isFrozen(name: string): Promise<boolean> {
  const run = promisify(execFile);
  try {
    const [status, id, oci] = (await run(runtimeBinary(), ['inspect', '--format', '{{.State.Status}} {{.Id}} {{.OCIRuntime}}', name])).stdout.trim().split(' ');
    if (status === 'paused') return true;
    if (!['runc', 'crun'].includes(oci ?? '')) return false;
    return (JSON.parse((await run(oci!, ['state', id!])).stdout) as { status: string }).status === 'paused';
  } catch {
    return false;
  }
}

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const text = (result: CallResult) => (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
const structured = (result: CallResult) => (result.structuredContent ?? {}) as { status?: string; error?: string; stdout?: string[]; durationMs?: number };

describe.skipIf(!sandbox.available)('what a person is asked, and how long a run may wait for it', () => {
  let t: TestApp;
  let client: Client;
  const effectsFile = path.join(mkdtempSync(path.join(tmpdir(), 'sandbar-effects-')), 'effects.json');
  const deletes = () => {
    try {
      return (JSON.parse(readFileSync(effectsFile, 'utf8')) as { deletes?: number }).deletes ?? 0;
    } catch {
      return 0;
    }
  };
  const asked: PendingApproval[] = [];
  let answer: ((a: PendingApproval) => void) | null = null;
  const connect = async (name: string, capabilities: Record<string, unknown> = {}) => {
    const c = new Client({ name, version: '1.0.0' }, { capabilities });
    const token = readFileSync(path.join(t.home, 'token'), 'utf8').trim();
    await c.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl()}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return c;
  };
  const run = (c: Client, code: string, timeout?: number) =>
    c.callTool({ name: 'run_python', arguments: { code, servers: ['effects'], ...(timeout ? { timeout } : {}) } }, undefined, { timeout: 180_000 });
  const decide = (a: PendingApproval, decision: 'deny' | 'allow-once') => t.app.core.approvals.broker.decide(a.id, decision, 'panel');

  beforeAll(async () => {
    t = await startTestApp({
      mcpServers: { effects: { command: process.execPath, args: [FIXTURE], env: { EFFECTS_FILE: effectsFile } } },
      approvalTimeoutSec: APPROVAL_TIMEOUT_SEC,
    });
    t.app.core.engine.subscribe((e) => {
      if (e.type !== 'approvalRequested' || asked.some((a) => a.id === e.approval.id)) return;
      asked.push(e.approval);
      answer?.(e.approval);
    });
    client = await connect('bounds-test');
  }, 60_000);
  afterEach(() => {
    answer = null;
    asked.length = 0;
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('refuses a tool the server does not list before any question; the name is neither recorded nor shown', async () => {
    const source = [
      'import mcp.runtime as runtime',
      'from mcp.runtime import ToolCallDenied',
      'names = ["delete_item\\x1b[2J\\x1b]0;pwned\\x07", "delete\\u202e_item", "read\\u200bitem", "d" * 1_000_000, "x" * 129, "delete_item2", ""]',
      'for n in names:',
      '    try:',
      '        await runtime.call_tool("effects", n, {"name": "forged"})',
      '        print("called")',
      '    except runtime.MCPError as e:',
      '        print("refused" if isinstance(e, ToolCallDenied) else "error", str(e)[:300])',
    ].join('\n');
    const result = await run(client, source);
    const lines = structured(result).stdout ?? [];
    expect(lines).toHaveLength(7);
    expect(lines.slice(0, 3)).toEqual(Array(3).fill(expect.stringMatching(/^refused Refused: that is not an MCP tool name/)));
    expect(lines[3]).toMatch(/^refused Refused: that is not an MCP tool name/);
    expect(lines[4]).toMatch(/^refused Refused: that is not an MCP tool name/);
    expect(lines[5]).toBe("refused Refused: 'effects' lists no tool by that name (6 such calls refused in this run; list_tools('effects') shows its tools)");
    expect(lines[6]).toBe('error Missing tool name');
    for (const line of lines) expect(line).not.toMatch(/pwned|ddddd|xxxxx|delete_item2/);
    expect(asked).toEqual([]);
    expect(deletes()).toBe(0);
    const runId = t.app.core.history.list({ limit: 1 }).items[0]!.id;
    const detail = t.app.core.history.get(runId)!;
    expect(detail.toolCalls.map((c) => [c.server, c.tool])).toEqual([['effects', UNLISTED_TOOL]]);
    expect(detail.approvals).toEqual([]);
  }, 180_000);

  it('the CLI shows a question with escapes and bidi characters in its arguments and code line without any raw control, the full id on its own line', async () => {
    const cli = (...args: string[]) => promisify(execFile)(process.execPath, [path.resolve('dist/electron/cli.js'), ...args], { env: { ...process.env, SANDBAR_HOME: t.home } });
    const source = 'r = await mcp_effects.delete_item(name="a\\x1b[2J\\x1b]0;pwned\\x07\\u202eexe.txt\\u200b") # \x1b[31m\u202e nothing to see\u2066';
    let question: PendingApproval | undefined;
    answer = (a) => (question = a);
    const pending = run(client, `${source}\nprint(r["content"][0]["text"])`);
    await waitFor(() => question !== undefined, 60_000);
    const listing = (await cli('approvals')).stdout;
    expect(listing).not.toMatch(RAW);
    const lines = listing.split('\n');
    expect(lines[0]).toBe(`${question!.id}  effects/delete_item`);
    expect(lines[1]).toMatch(/^ {4}run [0-9a-f]{8} · \d+s left, then denied$/);
    expect(lines[2]).toBe('    line 1 (as reported by the sandbox): r = await mcp_effects.delete_item(name="a\\x1b[2J\\x1b]0;pwned\\x07\\u202eexe.txt\\u200b") # nothing to see');
    expect(lines[3]).toBe('    arguments: {"name":"a\\u001b[2J\\u001b]0;pwned\\u0007\\u202eexe.txt\\u200b"}');
    expect(lines[4]).toBe(`    answer: npm run -s sandbar -- approve ${question!.id} [--run | --always], or npm run -s sandbar -- deny ${question!.id}`);
    // --json is the same data, with nothing raw in it either.
    const json = (await cli('approvals', '--json')).stdout;
    expect(json).not.toMatch(RAW);
    expect((JSON.parse(json) as PendingApproval[])[0]!.args).toEqual({ name: 'a\u001b[2J\u001b]0;pwned\u0007\u202eexe.txt\u200b' });
    await cli('approve', question!.id);
    expect(text(await pending)).toMatch(/^deleted a.*exe\.txt.* \(1\)$/s);
  }, 180_000);

  it('the elicitation message is at most 4 KiB with no raw controls; a forged name never reaches the client', async () => {
    const messages: string[] = [];
    const asking = await connect('eliciting-bounds', { elicitation: {} });
    asking.setRequestHandler(ElicitRequestSchema, async (request) => {
      messages.push(String(request.params.message));
      return { action: 'decline' };
    });
    try {
      const forged = await run(asking, 'import mcp.runtime as runtime\ntry:\n    await runtime.call_tool("effects", "delete_item\\x1b[2J\\u202e", {})\nexcept runtime.MCPError as e:\n    print("refused")');
      expect(text(forged)).toBe('refused');
      expect(messages).toEqual([]);
      const huge = await run(asking, 'from mcp.runtime import ToolCallDenied\ntry:\n    await mcp_effects.delete_item(name="\\x1b[31m\\u202e\\u200b" * 100_000)\nexcept ToolCallDenied as e:\n    print("denied:", e)');
      expect(text(huge)).toBe('denied: effects/delete_item was denied (client)');
      expect(messages).toHaveLength(1);
      expect(Buffer.byteLength(messages[0]!)).toBeLessThanOrEqual(4096);
      expect(messages[0]).not.toMatch(RAW);
      expect(messages[0]).toMatch(/^Code in run_python wants to call effects\/delete_item with \{"name":"\\u001b\[31m\\u202e\\u200b/);
      expect(messages[0]).toMatch(/…, from line 3 \(as reported by the sandbox\): await mcp_effects\.delete_item\(name=.*\. Allow it\?$/);
    } finally {
      await asking.close();
    }
  }, 180_000);

  it('a loop that calls an asked tool while the person denies ends within its timeout: the questions are capped, then denied without asking', async () => {
    answer = (a) => decide(a, 'deny');
    const source = [
      'from mcp.runtime import ToolCallDenied',
      'import time',
      'denied = {}',
      'for i in range(100_000):',
      '    try:',
      '        await mcp_effects.delete_item(name=str(i % 40))',
      '    except ToolCallDenied as e:',
      '        kind = "cap" if "questions" in str(e) else "earlier" if "earlier" in str(e) else "asked"',
      '        denied[kind] = denied.get(kind, 0) + 1',
      '        if kind == "cap" and denied[kind] == 1: print(e)',
    ].join('\n');
    const result = await run(client, source, 5);
    // From hand-over to the end (container start-up is not the run's time).
    const took = structured(result).durationMs!;
    expect(structured(result).status).toBe('timeout');
    expect(structured(result).stdout).toEqual([`effects/delete_item was denied without asking: this run already asked ${MAX_QUESTIONS_PER_RUN} questions, the most one run may ask`]);
    expect(asked).toHaveLength(MAX_QUESTIONS_PER_RUN);
    expect(deletes()).toBe(1);
    // The stated cap is timeout + approvalTimeoutSec; quick answers hold almost nothing, so it ends near 5 s.
    expect(took).toBeLessThan((5 + APPROVAL_TIMEOUT_SEC) * 1000 + 2000);
    const runId = asked[0]!.runId;
    const recorded = t.app.core.history.get(runId)!.approvals;
    expect(recorded.filter((o) => o.by === 'panel')).toHaveLength(MAX_QUESTIONS_PER_RUN);
    expect(recorded.filter((o) => o.by === 'question cap').length).toBeGreaterThan(0);
    expect(recorded.length).toBeLessThanOrEqual(MAX_QUESTIONS_PER_RUN + 50);
  }, 180_000);

  it('when nobody answers, a timeout 5 run still ends by timeout + approvalTimeoutSec', async () => {
    const source = ['from mcp.runtime import ToolCallDenied', 'for i in range(1000):', '    try:', '        await mcp_effects.delete_item(name="late%d" % i)', '    except ToolCallDenied as e:', '        print(e)'].join('\n');
    const result = await run(client, source, 5);
    const took = structured(result).durationMs!;
    const cap = (5 + APPROVAL_TIMEOUT_SEC) * 1000;
    expect(structured(result).status).toBe('timeout');
    expect(structured(result).error).toBe(`Execution timed out after 5s (plus ${APPROVAL_TIMEOUT_SEC}s waiting for approval answers)`);
    expect(structured(result).stdout?.[0]).toBe(`effects/delete_item was denied: nobody answered within ${APPROVAL_TIMEOUT_SEC}s`);
    expect(took).toBeGreaterThanOrEqual(cap - 500);
    expect(took).toBeLessThan(cap + 2000);
    // Every question expires with the run at the latest.
    const startedAt = t.app.core.history.get(asked[0]!.runId)!.startedAt!;
    expect(asked.length).toBeGreaterThanOrEqual(2);
    for (const a of asked) expect(a.expiresAt - startedAt).toBeLessThanOrEqual(cap + 1000);
  }, 180_000);

  it('freezes the container while its only call waits (a ticker thread counts nothing) and thaws it on the answer', async () => {
    // The person answers 3 s after the container is seen frozen (the runtime's own record says so).
    const frozenAt: number[] = [];
    answer = (a) => {
      const name = t.app.core.engine.snapshot().running.find((r) => r.id === a.runId)?.containerName;
      void waitFor(() => (name ? isFrozen(name) : false), 20_000, 50).then((seen) => {
        frozenAt.push(seen ? Date.now() : -1);
        setTimeout(() => decide(a, 'allow-once'), 3000);
      });
    };
    const source = [
      'import threading, time',
      'ticks = []',
      'def tick():',
      '    while True:',
      '        ticks.append(time.monotonic())',
      '        time.sleep(0.01)',
      'threading.Thread(target=tick, daemon=True).start()',
      'time.sleep(0.5)',
      'for name in ("frozen1", "frozen2"):',
      '    before = len(ticks)',
      '    r = await mcp_effects.delete_item(name=name)',
      '    during = len(ticks) - before',
      '    start = len(ticks)',
      '    time.sleep(0.5)',
      '    gap = max(b - a for a, b in zip(ticks[before - 1:], ticks[before:start + 1]))',
      '    print(r["content"][0]["text"], during, round(gap, 2), len(ticks) - start)',
    ].join('\n');
    const result = await run(client, source, 10);
    const lines = structured(result).stdout ?? [];
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((l) => {
      const [, , , during, gap, after] = l.split(' ');
      expect(l).toMatch(/^deleted frozen[12] \(\d+\) /);
      return { during: Number(during), gap: Number(gap), after: Number(after) };
    });
    expect(frozenAt).toHaveLength(2);
    expect(frozenAt.every((at) => at > 0)).toBe(true);
    // Frozen: the ticker stopped for the whole 3 s it was seen frozen (unfrozen, no gap passes a few ticks'
    // time). The first freeze of a container also looks up its cgroup (about half a second here, more when
    // the machine is loaded), so only the second one is timed.
    expect(first!.gap).toBeGreaterThan(2.5);
    expect(second!.gap).toBeGreaterThan(2.5);
    // Found once, the next freeze follows the hold within its 100 ms delay: almost no ticks while held.
    expect(second!.during).toBeLessThan(30);
    // Thawed: the ticker runs again after each answer.
    expect(first!.after).toBeGreaterThan(10);
    expect(second!.after).toBeGreaterThan(10);
  }, 180_000);

  it('identical calls waiting at once are one question; its answer covers each, and a deny is remembered for the run', async () => {
    let question: PendingApproval | undefined;
    answer = (a) => {
      question = a;
      // Wait until every identical call has joined, then deny the one question.
      void waitFor(() => (t.app.core.approvals.broker.list()[0]?.calls ?? 1) >= 3, 20_000, 20).then(() => decide(a, 'deny'));
    };
    const source = [
      'import asyncio',
      'from mcp.runtime import ToolCallDenied',
      'async def one():',
      '    try:',
      '        await mcp_effects.delete_item(name="dup")',
      '        return "called"',
      '    except ToolCallDenied as e:',
      '        return str(e)',
      'print(await asyncio.gather(one(), one(), one()))',
      'print(await one())',
    ].join('\n');
    const lines = structured(await run(client, source)).stdout ?? [];
    expect(asked).toHaveLength(1);
    expect(question!.calls).toBe(3);
    expect(lines[0]).toBe(`['effects/delete_item was denied (panel)', 'effects/delete_item was denied (panel)', 'effects/delete_item was denied (panel)']`);
    expect(lines[1]).toBe('effects/delete_item was denied earlier in this run: the same call is denied again without asking');
    expect(t.app.core.history.get(question!.runId)!.approvals).toHaveLength(1);
  }, 180_000);
});
