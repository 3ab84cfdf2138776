// Approvals for MCP 2026-07-28 clients, end to end: a real app on a real runtime, a v2 SDK client of that
// revision, and the fixture server whose tools count their effects. The question reaches the client as an
// input-required result of its `tools/call`; the client retries with its answer and the request state,
// and the same held run goes on (the code is not run again). Request states that are forged, replayed,
// expired or offered with other arguments are refused, and the run keeps waiting for a real answer.
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../helpers.js';
import { httpCaller, startTestApp, type TestApp } from '../control/control-helpers.js';

const FIXTURE = path.resolve('test/fixtures/effects-mcp-server.mjs');
const CLI = path.resolve('dist/electron/cli.js');
const REVISION = '2026-07-28';

/** Reads an item (proof of how often the code ran), then asks to delete one. */
const code = (name: string) =>
  [
    'from mcp.runtime import ToolCallDenied',
    `r = await mcp_effects.read_item(name="${name}")`,
    'print(r["content"][0]["text"])',
    'try:',
    `    r = await mcp_effects.delete_item(name="${name}")`,
    '    print(r["content"][0]["text"])',
    'except ToolCallDenied as e:',
    '    print("denied:", e)',
  ].join('\n');

interface Exchange {
  request: { method?: string; params?: { requestState?: string; inputResponses?: Record<string, unknown> } };
  response: string;
}

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
const text = (result: ToolResult) => (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

interface InputRequired {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params: { message: string } }>;
  requestState: string;
}

/** Flips one character inside the state's signed payload. */
function forge(state: string): string {
  const [prefix, body, signature] = state.split('.') as [string, string, string];
  const i = Math.floor(body.length / 2);
  return `${prefix}.${body.slice(0, i)}${body[i] === 'A' ? 'B' : 'A'}${body.slice(i + 1)}.${signature}`;
}

describe.skipIf(!sandbox.available)('approvals for MCP 2026-07-28 clients (multi round-trip requests)', () => {
  let t: TestApp;
  let token: string;
  const effectsFile = path.join(mkdtempSync(path.join(tmpdir(), 'sandbar-effects-')), 'effects.json');
  const effects = (): { reads: number; deletes: number } => {
    try {
      return { reads: 0, deletes: 0, ...(JSON.parse(readFileSync(effectsFile, 'utf8')) as object) };
    } catch {
      return { reads: 0, deletes: 0 };
    }
  };
  const clients: Client[] = [];

  /** A client of revision 2026-07-28 over HTTP; `answers` feed its elicitation handler, `exchanges` record the wire. */
  async function modernClient(options: { answers?: string[]; exchanges?: Exchange[]; elicitation?: boolean } = {}): Promise<Client> {
    const client = new Client(
      { name: 'mrtr-test', version: '1.0.0' },
      { capabilities: options.elicitation === false ? {} : { elicitation: {} }, versionNegotiation: { mode: { pin: REVISION } } },
    );
    if (options.elicitation !== false) {
      client.setRequestHandler('elicitation/create', async () => {
        const next = options.answers?.shift();
        return next === 'decline' ? { action: 'decline' } : { action: 'accept', content: { decision: next ?? 'allow-once' } };
      });
    }
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (options.exchanges && typeof init?.body === 'string') {
        const copy = response.clone();
        const entry: Exchange = { request: JSON.parse(init.body) as Exchange['request'], response: '' };
        options.exchanges.push(entry);
        void copy.text().then((body) => (entry.response = body));
      }
      return response;
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl()}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: recording }));
    clients.push(client);
    return client;
  }

  /** The SDK answers input-required results itself, through the client's elicitation handler. */
  const run = (client: Client, name: string) => client.callTool({ name: 'run_python', arguments: { code: code(name), servers: ['effects'] } }, { timeout: 120_000 });
  /** By hand: an input-required result comes back as it is, and a retry carries what the test gives. */
  const call = (client: Client, name: string, extra: Record<string, unknown> = {}) =>
    client.callTool({ name: 'run_python', arguments: { code: code(name), servers: ['effects'] }, ...extra }, { timeout: 120_000, allowInputRequired: true });

  /** The first round by hand: the input-required result a client of this revision gets for a question. */
  async function firstRound(client: Client, name: string): Promise<InputRequired> {
    const result = (await call(client, name)) as unknown as InputRequired;
    expect(result.resultType).toBe('input_required');
    return result;
  }

  const accept = (question: string, decision = 'allow-once') => ({ [question]: { action: 'accept', content: { decision } } });

  async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string; reason: unknown }> {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProtocolError);
    const p = err as ProtocolError;
    return { code: p.code, message: p.message, reason: (p.data as { reason?: unknown } | undefined)?.reason };
  }

  beforeAll(async () => {
    t = await startTestApp({ mcpServers: { effects: { command: process.execPath, args: [FIXTURE], env: { EFFECTS_FILE: effectsFile } } }, approvalTimeoutSec: 60 });
    token = readFileSync(path.join(t.home, 'token'), 'utf8').trim();
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await t?.close();
  });

  it('asks through an input-required result; accepted, the same run goes on and the call happens once', async () => {
    const exchanges: Exchange[] = [];
    const client = await modernClient({ answers: ['allow-once'], exchanges });
    expect(client.getNegotiatedProtocolVersion()).toBe(REVISION);
    const before = effects();
    const result = await run(client, 'accepted');
    expect(text(result).split('\n')).toEqual([`read accepted (${before.reads + 1})`, `deleted accepted (${before.deletes + 1})`]);
    // One read: the retry joined the held run rather than running the code again.
    expect(effects()).toEqual({ reads: before.reads + 1, deletes: before.deletes + 1 });

    const calls = exchanges.filter((e) => e.request.method === 'tools/call');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.response).toContain('"resultType":"input_required"');
    expect(calls[0]!.response).toContain('effects/delete_item with {\\"name\\":\\"accepted\\"}');
    const retry = calls[1]!.request.params!;
    expect(retry.requestState).toMatch(/^sbrs1\./);
    expect(Object.values(retry.inputResponses ?? {})).toEqual([{ action: 'accept', content: { decision: 'allow-once' } }]);
    expect(t.app.core.approvals.broker.list()).toEqual([]);
  }, 120_000);

  it('declined, the code gets ToolCallDenied and nothing is deleted', async () => {
    const client = await modernClient({ answers: ['decline'] });
    const before = effects();
    const result = await run(client, 'declined');
    expect(text(result).split('\n')).toEqual([`read declined (${before.reads + 1})`, 'denied: effects/delete_item was denied (client)']);
    expect(effects()).toEqual({ reads: before.reads + 1, deletes: before.deletes });
  }, 120_000);

  it('two calls waiting at once in one run are both asked and both answered, one round or two', async () => {
    const answers = ['allow-once', 'allow-once'];
    const client = await modernClient({ answers });
    const before = effects();
    const source = [
      'import asyncio',
      'a, b = await asyncio.gather(mcp_effects.delete_item(name="p"), mcp_effects.delete_item(name="q"))',
      'print(a["content"][0]["text"].split(" (")[0]); print(b["content"][0]["text"].split(" (")[0])',
    ].join('\n');
    const result = await client.callTool({ name: 'run_python', arguments: { code: source, servers: ['effects'] } }, { timeout: 120_000 });
    expect(text(result).split('\n')).toEqual(['deleted p', 'deleted q']);
    expect(answers).toEqual([]);
    expect(effects().deletes).toBe(before.deletes + 2);
  }, 120_000);

  it('a client that declared no elicitation is not asked: its call waits while the panel answers', async () => {
    const client = await modernClient({ elicitation: false });
    const before = effects();
    const pending = run(client, 'no-elicitation');
    let question: string | undefined;
    for (let i = 0; i < 600 && !question; i++) {
      question = t.app.core.approvals.broker.list().find((a) => a.args.name === 'no-elicitation')?.id;
      if (!question) await new Promise((r) => setTimeout(r, 100));
    }
    expect(question).toBeDefined();
    expect(t.app.core.approvals.broker.decide(question!, 'allow-once', 'panel')).toBe(true);
    expect(text(await pending).split('\n')).toEqual([`read no-elicitation (${before.reads + 1})`, `deleted no-elicitation (${before.deletes + 1})`]);
  }, 120_000);

  it('refuses forged, replayed and misapplied request states, and the held run keeps waiting for a real answer', async () => {
    const client = await modernClient();
    const before = effects();
    const first = await firstRound(client, 'held');
    const [question] = Object.keys(first.inputRequests);
    expect(first.inputRequests[question!]!.method).toBe('elicitation/create');
    const pending = t.app.core.approvals.broker.list();
    expect(pending).toEqual([expect.objectContaining({ id: question, server: 'effects', tool: 'delete_item', args: { name: 'held' } })]);

    const forged = await refusal(call(client, 'held', { inputResponses: accept(question!), requestState: forge(first.requestState) }));
    expect(forged).toEqual({ code: -32602, message: expect.stringMatching(/Invalid requestState: its signature does not match/), reason: 'forged' });
    const junk = await refusal(call(client, 'held', { inputResponses: accept(question!), requestState: 'not-a-state' }));
    expect(junk.reason).toBe('malformed');
    const otherCall = await refusal(call(client, 'other', { inputResponses: accept(question!), requestState: first.requestState }));
    expect(otherCall).toEqual({ code: -32602, message: expect.stringMatching(/other arguments/), reason: 'other-call' });
    // Nothing was answered or lost: the question still waits, the container with it.
    expect(t.app.core.approvals.broker.list()).toEqual(pending);
    expect(effects()).toEqual({ reads: before.reads + 1, deletes: before.deletes });

    const result = (await call(client, 'held', { inputResponses: accept(question!), requestState: first.requestState })) as ToolResult;
    expect(text(result).split('\n')).toEqual([`read held (${before.reads + 1})`, `deleted held (${before.deletes + 1})`]);

    const replayed = await refusal(call(client, 'held', { inputResponses: accept(question!), requestState: first.requestState }));
    expect(replayed).toEqual({ code: -32602, message: expect.stringMatching(/used already/), reason: 'replayed' });
    expect(effects()).toEqual({ reads: before.reads + 1, deletes: before.deletes + 1 });
  }, 120_000);

  it('the first answer wins: the panel approves, and the retry (with a decline) just gets the result', async () => {
    const client = await modernClient();
    const before = effects();
    const first = await firstRound(client, 'panel-first');
    const [question] = Object.keys(first.inputRequests);
    expect(t.app.core.approvals.broker.decide(question!, 'allow-once', 'panel')).toBe(true);
    const result = (await call(client, 'panel-first', { inputResponses: { [question!]: { action: 'decline' } }, requestState: first.requestState })) as ToolResult;
    expect(text(result).split('\n')).toEqual([`read panel-first (${before.reads + 1})`, `deleted panel-first (${before.deletes + 1})`]);
  }, 120_000);

  it('a state from another caller (another client token) is refused', async () => {
    const client = await modernClient();
    const first = await firstRound(client, 'rotated');
    const [question] = Object.keys(first.inputRequests);
    // Rotating the client token makes every later request another caller's.
    const api = await httpCaller(t);
    try {
      token = (await api.value('endpoint.rotateToken', { kind: 'client' })).token;
    } finally {
      api.close();
    }
    const other = await modernClient();
    const refused = await refusal(call(other, 'rotated', { inputResponses: accept(question!), requestState: first.requestState }));
    expect(refused).toEqual({ code: -32602, message: expect.stringMatching(/issued to another caller/), reason: 'other-caller' });
    expect(t.app.core.approvals.broker.decide(question!, 'deny', 'panel')).toBe(true);
  }, 120_000);

  it('an expired state is refused; the deadline has denied the call by then', async () => {
    t.app.core.settingsService.update({ approvalTimeoutSec: 5 });
    try {
      const client = await modernClient();
      const before = effects();
      const first = await firstRound(client, 'late');
      const [question] = Object.keys(first.inputRequests);
      await new Promise((r) => setTimeout(r, 6500));
      const expired = await refusal(call(client, 'late', { inputResponses: accept(question!), requestState: first.requestState }));
      expect(expired).toEqual({ code: -32602, message: expect.stringMatching(/Invalid requestState: it expired \d+ s ago/), reason: 'expired' });
      expect(effects().deletes).toBe(before.deletes);
    } finally {
      t.app.core.settingsService.update({ approvalTimeoutSec: 60 });
    }
  }, 120_000);

  it('over stdio with its own engine (`sandbar stdio --no-bridge`): an approval completes the same way', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-stdio-'));
    const ownEffects = path.join(home, 'effects.json');
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ image: sandbox.image, poolSize: 0, mcpServers: { effects: { command: process.execPath, args: [FIXTURE], env: { EFFECTS_FILE: ownEffects } } } }));
    const client = new Client({ name: 'mrtr-stdio-own', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: REVISION } } });
    const answers = ['allow-once', 'decline'];
    client.setRequestHandler('elicitation/create', async () => {
      const next = answers.shift();
      return next === 'decline' ? { action: 'decline' } : { action: 'accept', content: { decision: next! } };
    });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI, 'stdio', '--no-bridge'], env: { ...(process.env as Record<string, string>), SANDBAR_HOME: home, SANDBAR_LOG_LEVEL: 'warn' }, stderr: 'pipe' }),
    );
    clients.push(client);
    const once = (name: string) => client.callTool({ name: 'run_python', arguments: { code: code(name), servers: ['effects'] } }, { timeout: 120_000 });
    expect(text(await once('own')).split('\n')).toEqual(['read own (1)', 'deleted own (1)']);
    expect(text(await once('own-declined')).split('\n')).toEqual(['read own-declined (2)', 'denied: effects/delete_item was denied (client)']);
    expect(JSON.parse(readFileSync(ownEffects, 'utf8'))).toEqual({ reads: 2, deletes: 1 });
  }, 120_000);

  it('over stdio, through `sandbar stdio` joining this instance: an approval completes the same way', async () => {
    const client = new Client({ name: 'mrtr-stdio', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: REVISION } } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { decision: 'allow-once' } };
    });
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'stdio'],
      env: { ...(process.env as Record<string, string>), SANDBAR_HOME: t.home, SANDBAR_LOG_LEVEL: 'info' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
    await client.connect(transport);
    clients.push(client);
    expect(client.getNegotiatedProtocolVersion()).toBe(REVISION);
    const before = effects();
    const result = await client.callTool({ name: 'run_python', arguments: { code: code('bridged'), servers: ['effects'] } }, { timeout: 120_000 });
    expect(text(result).split('\n')).toEqual([`read bridged (${before.reads + 1})`, `deleted bridged (${before.deletes + 1})`]);
    expect(asked).toEqual([expect.stringContaining('effects/delete_item with {"name":"bridged"}')]);
    expect(stderr.join('')).toContain('joining the running Sandbar');
  }, 120_000);
});
