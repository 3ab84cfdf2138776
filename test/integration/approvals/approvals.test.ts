// Approvals end to end: a real app (core, control API, listener) on a real runtime, an SDK client calling
// run_python over HTTP, and a fixture server whose tools count their effects. The question is answered
// through the control API as the panel does.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callKey } from '../../../electron/proxy/approval-broker.js';
import { sandbox } from '../helpers.js';
import { httpCaller, startTestApp, type ApiCaller, type TestApp } from '../control/control-helpers.js';

const FIXTURE = path.resolve('test/fixtures/effects-mcp-server.mjs');

const code = (call: string) =>
  [
    'from mcp.runtime import ToolCallDenied',
    'try:',
    `    r = await ${call}`,
    '    print(r["content"][0]["text"])',
    'except ToolCallDenied as e:',
    '    print("denied:", e)',
  ].join('\n');

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
}

describe.skipIf(!sandbox.available)('approvals for tool calls from code', () => {
  let t: TestApp;
  let api: ApiCaller;
  let client: Client;
  const effectsFile = path.join(mkdtempSync(path.join(tmpdir(), 'sandbar-effects-')), 'effects.json');
  const effects = (): { reads?: number; deletes?: number } => {
    try {
      return JSON.parse(readFileSync(effectsFile, 'utf8')) as { reads?: number; deletes?: number };
    } catch {
      return {};
    }
  };
  const run = (source: string, timeout?: number) =>
    client.callTool({ name: 'run_python', arguments: { code: source, servers: ['effects'], ...(timeout ? { timeout } : {}) } }, undefined, { timeout: 120_000 });
  const nextQuestion = async () => (await api.next('approvals.changed', (d) => d.pending.length > 0 && !seen.has(d.pending[0]!.id), 60_000)).pending[0]!;
  const seen = new Set<string>();

  beforeAll(async () => {
    t = await startTestApp({ mcpServers: { effects: { command: process.execPath, args: [FIXTURE], env: { EFFECTS_FILE: effectsFile } } }, approvalTimeoutSec: 60 });
    api = await httpCaller(t);
    const token = readFileSync(path.join(t.home, 'token'), 'utf8').trim();
    client = new Client({ name: 'approvals-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl()}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    api?.close();
    await t?.close();
  });
  beforeEach(() => {
    for (const e of api.events) if (e.event === 'approvals.changed') for (const p of (e.data as { pending: { id: string }[] }).pending) seen.add(p.id);
  });

  it('lets a read-only tool through without a question', async () => {
    const result = await run(code('mcp_effects.read_item(name="a")'));
    expect(text(result)).toBe('read a (1)');
    expect(t.app.core.approvals.broker.list()).toEqual([]);
  }, 120_000);

  it('asks about a destructive tool; approved, it runs once', async () => {
    const pending = run(code('mcp_effects.delete_item(name="a")'));
    const question = await nextQuestion();
    expect(question).toMatchObject({ server: 'effects', tool: 'delete_item', args: { name: 'a' }, codeLine: 'line 3: r = await mcp_effects.delete_item(name="a")' });
    expect(await api.value('approvals.list', {})).toEqual([question]);
    expect(effects().deletes ?? 0).toBe(0);
    expect(await api.value('approvals.decide', { id: question.id, decision: 'allow-once' })).toEqual({ decided: true });
    expect(text(await pending)).toBe('deleted a (1)');
    expect(effects().deletes).toBe(1);
    expect(await api.value('approvals.decide', { id: question.id, decision: 'deny' })).toEqual({ decided: false });
  }, 120_000);

  it('denied, the code gets ToolCallDenied and nothing happens', async () => {
    const pending = run(code('mcp_effects.delete_item(name="b")'));
    const question = await nextQuestion();
    await api.value('approvals.decide', { id: question.id, decision: 'deny' });
    expect(text(await pending)).toMatch(/^denied: effects\/delete_item was denied/);
    expect(effects().deletes).toBe(1);
    expect(t.app.core.history.get(question.runId)!.approvals).toEqual([
      { id: question.id, runId: question.runId, server: 'effects', tool: 'delete_item', argsHash: callKey('effects', 'delete_item', { name: 'b' }), decision: 'deny', by: 'panel', at: expect.any(Number) },
    ]);
  }, 120_000);

  it('names the calling line of a call made in a task of its own, and takes an answer from the tray', async () => {
    const source = ['import asyncio', 'async def main():', '    results = await asyncio.gather(', '        mcp_effects.delete_item(name="t1"),', '    )', '    print(results[0]["content"][0]["text"])', 'await main()'].join('\n');
    const pending = run(source);
    const question = await nextQuestion();
    expect(question.codeLine).toBe('line 4: mcp_effects.delete_item(name="t1"),');
    expect(await api.value('approvals.decide', { id: question.id, decision: 'allow-once', via: 'tray' })).toEqual({ decided: true });
    expect(text(await pending)).toMatch(/^deleted t1 \(\d+\)$/);
    expect(t.app.core.history.get(question.runId)!.approvals).toMatchObject([{ id: question.id, decision: 'allow-once', by: 'tray' }]);
  }, 120_000);

  it('shows no line when the one the sandbox names does not make the call: forged code can only point elsewhere in its own code', async () => {
    const source = [
      'import sys',
      'sys.modules["_sandbar_code_line"].calling_line = lambda: {"line": 1, "text": "print(\'harmless\')"}',
      'await mcp_effects.delete_item(name="forged")',
    ].join('\n');
    const pending = run(source);
    const question = await nextQuestion();
    // It named line 1 (`import sys`): the host's copy of that line does not call effects/delete_item.
    expect(question.codeLine).toBeUndefined();
    await api.value('approvals.decide', { id: question.id, decision: 'deny' });
    await pending;
  }, 120_000);

  it('stops the run clock while it waits: a 5 s run survives a 10 s question', async () => {
    const pending = run(code('mcp_effects.delete_item(name="slow")'), 5);
    const question = await nextQuestion();
    await new Promise((r) => setTimeout(r, 10_000));
    await api.value('approvals.decide', { id: question.id, decision: 'allow-once' });
    const result = await pending;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('deleted slow (3)');
  }, 120_000);

  it('allow-run covers the same call again in that run; changed arguments ask again', async () => {
    const source = [
      'r1 = await mcp_effects.delete_item(name="x")',
      'r2 = await mcp_effects.delete_item(name="x")',
      'print(r1["content"][0]["text"]); print(r2["content"][0]["text"])',
      'r3 = await mcp_effects.delete_item(name="y")',
      'print(r3["content"][0]["text"])',
    ].join('\n');
    const pending = run(source);
    const first = await nextQuestion();
    seen.add(first.id);
    await api.value('approvals.decide', { id: first.id, decision: 'allow-run' });
    const second = await nextQuestion();
    expect(second.args).toEqual({ name: 'y' });
    await api.value('approvals.decide', { id: second.id, decision: 'allow-once' });
    expect(text(await pending).split('\n')).toEqual(['deleted x (4)', 'deleted x (5)', 'deleted y (6)']);
  }, 120_000);

  it('denies when nobody answers by the deadline', async () => {
    t.app.core.settingsService.update({ approvalTimeoutSec: 5 });
    try {
      const started = Date.now();
      const result = await run(code('mcp_effects.delete_item(name="late")'));
      expect(text(result)).toMatch(/denied: effects\/delete_item was denied: nobody answered within 5s/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
      expect(effects().deletes).toBe(6);
      const recorded = t.app.core.history.list({ limit: 1 }).items[0]!;
      expect(t.app.core.history.get(recorded.id)!.approvals).toMatchObject([{ tool: 'delete_item', decision: 'timeout', by: 'deadline' }]);
    } finally {
      t.app.core.settingsService.update({ approvalTimeoutSec: 60 });
    }
  }, 120_000);

  it('allow-always writes a policy: the next call is not asked about', async () => {
    const pending = run(code('mcp_effects.delete_item(name="z")'));
    const question = await nextQuestion();
    await api.value('approvals.decide', { id: question.id, decision: 'allow-always' });
    expect(text(await pending)).toBe('deleted z (7)');
    expect(t.app.core.settings.toolPolicies).toEqual({ 'effects/delete_item': 'allow' });
    expect(text(await run(code('mcp_effects.delete_item(name="w")')))).toBe('deleted w (8)');

    t.app.core.settingsService.update({ toolPolicies: { 'effects/delete_item': 'deny' } });
    expect(text(await run(code('mcp_effects.delete_item(name="v")')))).toBe('denied: effects/delete_item is denied by policy (toolPolicies)');
    const refused = t.app.core.history.list({ limit: 1 }).items[0]!;
    expect(t.app.core.history.get(refused.id)!.approvals).toMatchObject([{ tool: 'delete_item', decision: 'deny', by: 'policy' }]);
    expect(effects().deletes).toBe(8);
  }, 120_000);

  it('the CLI lists the question and approves it', async () => {
    const cli = (...args: string[]) => promisify(execFile)(process.execPath, [path.resolve('dist/electron/cli.js'), ...args], { env: { ...process.env, SANDBAR_HOME: t.home } });
    t.app.core.settingsService.update({ toolPolicies: { 'effects/delete_item': 'ask' } }); // the allow-always test set allow
    const pending = run(code('mcp_effects.delete_item(name="cli")'));
    const question = await nextQuestion();
    const listed = JSON.parse((await cli('approvals', '--json')).stdout) as { id: string; tool: string }[];
    expect(listed).toEqual([expect.objectContaining({ id: question.id, server: 'effects', tool: 'delete_item', args: { name: 'cli' } })]);
    const listing = (await cli('approvals')).stdout;
    expect(listing).toContain(`${question.id}  effects/delete_item`);
    expect(listing).toContain('\n    line 3 (as reported by the sandbox): r = await mcp_effects.delete_item(name="cli")\n');
    expect((await cli('approve', question.id)).stdout).toBe(`Allowed ${question.id}.\n`);
    expect(text(await pending)).toMatch(/^deleted cli \(\d+\)$/);
    const again = await cli('deny', question.id).catch((err: { code: number; stderr: string }) => err);
    expect(again).toMatchObject({ code: 1 });
    expect((again as { stderr: string }).stderr).toContain(`No question ${question.id} is waiting`);
  }, 120_000);

  it('asks a client that declared elicitation; its answer decides, accept or decline', async () => {
    t.app.core.settingsService.update({ toolPolicies: { 'effects/delete_item': 'ask' } });
    const token = readFileSync(path.join(t.home, 'token'), 'utf8').trim();
    const asking = new Client({ name: 'eliciting-client', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const answers: string[] = ['allow-once', 'decline'];
    const messages: string[] = [];
    asking.setRequestHandler(ElicitRequestSchema, async (request) => {
      messages.push(String(request.params.message));
      const next = answers.shift();
      return next === 'decline' ? { action: 'decline' } : { action: 'accept', content: { decision: next! } };
    });
    await asking.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl()}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      const before = effects().deletes ?? 0;
      const call = (name: string) => asking.callTool({ name: 'run_python', arguments: { code: code(`mcp_effects.delete_item(name="${name}")`), servers: ['effects'] } }, undefined, { timeout: 120_000 });
      expect(text(await call('elicited'))).toBe(`deleted elicited (${before + 1})`);
      expect(text(await call('declined'))).toMatch(/^denied: effects\/delete_item was denied \(client\)$/);
      expect(effects().deletes).toBe(before + 1);
      expect(messages[0]).toBe('Code in run_python wants to call effects/delete_item with {"name":"elicited"}, from line 3 (as reported by the sandbox): r = await mcp_effects.delete_item(name="elicited"). Allow it?');
      expect(t.app.core.approvals.broker.list()).toEqual([]);
    } finally {
      await asking.close();
    }
  }, 120_000);
});

describe.skipIf(!sandbox.available)('approvals in a one-off sandbar run', () => {
  it('refuses at once a call that needs approval, saying how to allow it; read-only calls pass', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-oneoff-'));
    const effectsFile = path.join(home, 'effects.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ image: sandbox.image, mcpServers: { effects: { command: process.execPath, args: [FIXTURE], env: { EFFECTS_FILE: effectsFile } } } }));
    const source = `${code('mcp_effects.delete_item(name="x")')}\nr = await mcp_effects.read_item(name="y")\nprint(r["content"][0]["text"])`;
    const { spawnSync } = await import('node:child_process');
    const { stdout, stderr } = spawnSync(process.execPath, [path.resolve('dist/electron/cli.js'), 'run', '--no-bridge', '--servers', 'effects', '-'], {
      input: source,
      encoding: 'utf8',
      env: { ...process.env, SANDBAR_HOME: home },
      timeout: 120_000,
    });
    expect(stderr).toBe('');
    const child = stdout.split('\n');
    expect(child[0]).toBe('denied: effects/delete_item needs approval and this one-off run has nobody to ask: allow it in toolPolicies ("effects/delete_item": "allow"), or run it through a running Sandbar (the app or `npm run serve`) and answer there');
    expect(child[1]).toBe('read y (1)');
    expect(JSON.parse(readFileSync(effectsFile, 'utf8'))).toEqual({ reads: 1, deletes: 0 });
  }, 120_000);
});
