// Every method of the control contract, over both transports, against the real app: real podman runs,
// the real history database, a real third-party MCP server (server-everything) behind the proxy, and
// client config files in a temporary HOME.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHOD_NAMES, type MethodName } from '../../../shared/contract.js';
import { PAUSED_MESSAGE } from '../../../electron/sandbox/engine.js';
import { containersOf, sandbox, waitFor } from '../helpers.js';
import { httpCaller, ipcCaller, startTestApp, type ApiCaller, type TestApp } from './control-helpers.js';

const exercised = new Set<MethodName>();

describe.skipIf(!sandbox.available).each(['http', 'ipc'] as const)('control API over %s', (transport) => {
  let t: TestApp;
  let api: ApiCaller;
  const track = <M extends MethodName>(method: M) => {
    if (transport === 'ipc') exercised.add(method);
    return method;
  };

  beforeAll(async () => {
    t = await startTestApp();
    api = transport === 'http' ? await httpCaller(t) : ipcCaller(t);
  });
  afterAll(async () => {
    api?.close();
    await t?.close();
    if (t) expect(containersOf(t.app.core.engine.owner.instanceId)).toEqual([]);
  });

  it('runs, streams output to a subscriber, records and re-runs an execution, with lifecycle events in order', async () => {
    const code = 'import time\nfor i in range(4):\n    print("tick", i, flush=True)\n    time.sleep(0.4)\nprint("done")';
    const handle = t.app.core.engine.submit({ code, client: { name: 'cli', transport: 'cli' } });
    await api.next('execution.started', (e) => e.id === handle.id);
    const tail = await api.value(track('output.subscribe'), { id: handle.id });
    expect(tail).not.toBeNull();
    const finished = await api.next('execution.finished', (e) => e.result.id === handle.id);
    expect(finished.result.exitReason).toBe('success');
    expect(finished.result.code).toBe(code);
    expect(finished.result).not.toHaveProperty('stdout');
    // What the subscriber saw: the tail at subscription plus every chunk after it, complete and in order.
    const chunks = api.events.filter((e) => e.event === 'output.chunk' && (e.data as { id: string }).id === handle.id);
    const streamed = tail!.stdout + chunks.map((c) => (c.data as { stdout: string }).stdout).join('');
    expect(streamed).toBe('tick 0\ntick 1\ntick 2\ntick 3\ndone\n');
    // Each connection's events carry consecutive sequence numbers, and the lifecycle comes in order.
    expect(api.events.map((e) => e.seq)).toEqual(api.events.map((_e, i) => api.events[0]!.seq + i));
    const order = api.events.filter((e) => JSON.stringify(e.data).includes(handle.id)).map((e) => e.event);
    expect(order.indexOf('execution.queued')).toBeLessThan(order.indexOf('execution.started'));
    expect(order.lastIndexOf('output.chunk')).toBeLessThan(order.indexOf('execution.finished'));
    expect(await api.value(track('output.unsubscribe'), { id: handle.id })).toEqual({ ok: true });

    const snapshot = await api.value(track('live.snapshot'), {});
    expect(snapshot.recent[0]?.id).toBe(handle.id);
    expect(snapshot.memoryLimitBytes).toBe(512 * 1024 ** 2);

    const page = await api.value(track('executions.list'), { search: 'tick' });
    expect(page.items.map((i) => i.id)).toContain(handle.id);
    const detail = await api.value(track('executions.get'), { id: handle.id });
    expect(detail).toMatchObject({ code, stdout: 'tick 0\ntick 1\ntick 2\ntick 3\ndone\n', status: 'success' });
    expect(await api.value('executions.get', { id: 'no-such-run' })).toBeNull();
    const facets = await api.value(track('executions.facets'), {});
    expect(facets.clients).toContain('cli');

    const rerun = await api.value(track('executions.rerun'), { id: handle.id });
    expect(rerun.id).not.toBe(handle.id);
    const again = await api.next('execution.finished', (e) => e.result.id === rerun.id);
    expect(again.result).toMatchObject({ exitReason: 'success', code, client: { name: 'panel' } });
  });

  it('announces a plot run with artifact metadata only, and serves the bytes with executions.artifact', async () => {
    const code = "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.title('Sales')\nplt.show()";
    const handle = t.app.core.engine.submit({ code, client: { name: 'cli', transport: 'cli' } });
    const [result, finished] = await Promise.all([handle.result, api.next('execution.finished', (e) => e.result.id === handle.id)]);
    const figure = result.artifacts![0]!;
    const { data, ...meta } = figure;
    expect(finished.result.artifacts).toEqual([meta]);
    // The event carries no bytes: far smaller than the figure itself.
    expect(JSON.stringify(finished).length).toBeLessThan(figure.size);
    const served = await api.value(track('executions.artifact'), { runId: handle.id, name: 'figure-1.png' });
    expect(served).toEqual({ name: 'figure-1.png', mimeType: 'image/png', size: figure.size, data: Buffer.from(data).toString('base64') });
    const detail = await api.value('executions.get', { id: handle.id });
    expect(detail!.artifacts).toEqual([meta]);
    const missing = await api.call('executions.artifact', { runId: handle.id, name: 'figure-2.png' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringMatching(/No artifact 'figure-2.png' of execution/) } });
    // History finds words by their beginning, over the API as in the panel: `matplot` finds this run, the
    // hit is the whole word; quotes mean exactly that word or phrase; FTS syntax is plain text.
    const found = await api.value('executions.list', { search: 'matplot' });
    expect(found.items.map((i) => i.id)).toContain(handle.id);
    expect(found.items.find((i) => i.id === handle.id)!.snippet!.filter((p) => p.hit).map((p) => p.text)).toContain('matplotlib');
    expect((await api.value('executions.list', { search: '"matplot"' })).items.map((i) => i.id)).not.toContain(handle.id);
    expect((await api.value('executions.list', { search: '"matplotlib.pyplot as plt"' })).items.map((i) => i.id)).toContain(handle.id);
    for (const hostile of ['"', '"matplotlib.pyp', 'NEAR(', 'a OR', '*', 'title:Sales', "')"]) {
      expect(await api.call('executions.list', { search: hostile }), hostile).toMatchObject({ ok: true });
    }
    const bad = await api.call('executions.artifact', { runId: '', name: 'x' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request', fields: { runId: expect.any(String) } } });
  });

  it('cancels a long run with Kill and leaves no container behind', async () => {
    const handle = t.app.core.engine.submit({ code: 'import time\nprint("long", flush=True)\ntime.sleep(60)', client: { name: 'cli' } });
    const started = await api.next('execution.started', (e) => e.id === handle.id);
    expect(await api.value(track('executions.cancel'), { id: handle.id })).toEqual({ cancelled: true });
    const result = await handle.result;
    expect(result.exitReason).toBe('cancelled');
    expect(await waitFor(() => !containersOf(t.app.core.engine.owner.instanceId).includes(started.containerName), 20_000)).toBe(true);
    expect(await api.value('executions.cancel', { id: handle.id })).toEqual({ cancelled: false });
  });

  it('pauses and resumes new runs', async () => {
    expect(await api.value(track('live.setPaused'), { paused: true })).toEqual({ paused: true });
    await api.next('live.changed', (e) => e.paused);
    const refused = await t.app.core.engine.submit({ code: 'print(1)' }).result;
    expect(refused).toMatchObject({ exitReason: 'runtime_error', message: PAUSED_MESSAGE });
    expect(await api.value('live.setPaused', { paused: false })).toEqual({ paused: false });
    expect((await t.app.core.engine.submit({ code: 'print(1)' }).result).exitReason).toBe('success');
  });

  it('refuses invalid settings field by field and saves nothing; applies valid ones live', async () => {
    const file = path.join(t.home, 'settings.json');
    const before = readFileSync(file, 'utf8');
    const bad = await api.call(track('settings.update'), { patch: { limits: { memory: 'lots', pids: 3 }, poolSize: 99 } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('invalid_config');
      expect(Object.keys(bad.error.fields ?? {}).sort()).toEqual(['limits.memory', 'limits.pids', 'poolSize']);
    }
    expect(readFileSync(file, 'utf8')).toBe(before);

    const view = await api.value(track('settings.get'), {});
    expect(view.file).toBe(file);
    expect(view.defaults.limits.memory).toBe('512m');
    const change = await api.value('settings.update', { patch: { limits: { memory: '300m' } } });
    expect(change.changed).toEqual(['limits.memory']);
    expect((await api.next('settings.changed', (e) => e.changed.includes('limits.memory'))).settings.limits.memory).toBe('300m');
    expect(JSON.parse(readFileSync(file, 'utf8')).limits.memory).toBe('300m');
    const flags = await api.value(track('settings.previewFlags'), { limits: { memory: '700m' } });
    expect(flags.argv.join(' ')).toContain('--memory 700m');
    const invalidFlags = await api.call('settings.previewFlags', { limits: { memory: 'x' } });
    expect(invalidFlags.ok ? null : invalidFlags.error.fields).toHaveProperty(['limits.memory']);
    await api.value('settings.update', { patch: { limits: { memory: '512m' } } });
  });

  it('reports health, re-probes, and reports a failed image pull with its reason', async () => {
    const latest = await waitFor(async () => (await api.value(track('health.get'), {})) !== null, 60_000);
    expect(latest).toBe(true);
    const report = await api.value(track('health.probe'), {});
    expect(report.ok).toBe(true);
    expect(report.enforced).toMatchObject({ memory: true, pids: true, network: true, readOnlyRoot: true });
    await api.next('health.changed', (e) => e.checkedAt === report.checkedAt);
    // Every runtime installed here, probed on request: the one in use is among them, its limits proven.
    const tiers = await api.value(track('health.tiers'), {});
    const inUse = tiers.find((t) => t.runtime === report.runtime!.name && t.isolation === (report.capabilities?.isolation ?? 'runc'));
    expect(inUse?.capabilities?.limits.memory.state, JSON.stringify(tiers)).toBe('enforced');

    const pull = await api.value(track('image.pull'), { image: 'localhost/sandbar-no-such-image:nope' });
    expect(pull).toEqual({ started: true, image: 'localhost/sandbar-no-such-image:nope' });
    const failed = await api.next('image.pullProgress', (p) => p.phase === 'failed');
    expect(failed.error).toMatch(/Pulling localhost\/sandbar-no-such-image:nope failed/);
  });

  it('lists servers and their tools, denies (a run naming it is refused clearly), allows and restarts', async () => {
    const servers = await api.value(track('servers.list'), {});
    expect(servers.find((s) => s.name === 'everything')).toMatchObject({ policy: 'allow', transport: 'stdio' });
    const tools = await api.value(track('servers.tools'), { name: 'everything' });
    expect(tools.map((x) => x.name)).toContain('echo');

    const denied = await api.value(track('servers.deny'), { name: 'everything' });
    expect(denied.find((s) => s.name === 'everything')?.policy).toBe('deny');
    expect(t.app.core.servers.refusal(['everything'])).toMatch(/denied/);
    const rerunRefused = await api.call('servers.tools', { name: 'everything' });
    expect(rerunRefused.ok ? '' : rerunRefused.error.message).toMatch(/denied/);

    const allowed = await api.value(track('servers.allow'), { name: 'everything' });
    expect(allowed.find((s) => s.name === 'everything')?.policy).toBe('allow');
    const restarted = await api.value(track('servers.restart'), { name: 'everything' });
    expect(restarted.find((s) => s.name === 'everything')?.state).toBe('ready');
    const unknown = await api.call('servers.deny', { name: 'nope' });
    expect(unknown.ok).toBe(false);
  });

  it('adds Sandbar to a Claude Desktop config with a diff preview and a backup, then removes it', async () => {
    const file = path.join(t.userHome, '.config', 'Claude', 'claude_desktop_config.json');
    const original = `{\n  "mcpServers": {\n    "notes": { "command": "notes-mcp", "args": [] }\n  }\n}\n`;
    writeFileSync(file, original);
    const detected = await api.value(track('clients.detect'), {});
    expect(detected.find((c) => c.id === 'claude-desktop')).toMatchObject({ exists: true, configured: 'no', transport: 'stdio' });
    const preview = await api.value(track('clients.preview'), { id: 'claude-desktop', action: 'add' });
    expect(preview.diff.flatMap((h) => h.lines).some((l) => /^\+.*"sandbar"/.test(l))).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(original);
    const added = await api.value(track('clients.configure'), { id: 'claude-desktop', action: 'add' });
    expect(added.backup && readFileSync(added.backup, 'utf8')).toBe(original);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.mcpServers.notes).toEqual({ command: 'notes-mcp', args: [] });
    expect(written.mcpServers.sandbar.args).toContain('stdio');
    await api.value('clients.configure', { id: 'claude-desktop', action: 'remove' });
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('gives endpoint info, both tokens, and rotates them (the old token stops working at once)', async () => {
    const info = await api.value(track('endpoint.info'), {});
    expect(info).toMatchObject({ listening: true, url: `${t.baseUrl()}/mcp`, port: t.app.endpoint.port });
    expect(existsSync(info.tokenFile)).toBe(true);
    const { token: clientToken } = await api.value(track('endpoint.token'), {});
    expect(clientToken).toBe(readFileSync(info.tokenFile, 'utf8').trim());
    const { token } = await api.value('endpoint.token', { kind: 'panel' });
    expect(token).toBe(readFileSync(info.panelTokenFile, 'utf8').trim());
    expect(token).not.toBe(clientToken);
    if (transport === 'http') return; // Rotating here would cut the HTTP caller's own token; the IPC pass covers it.
    const rotatedClient = await api.value('endpoint.rotateToken', { kind: 'client' });
    expect(rotatedClient.token).not.toBe(clientToken);
    expect(readFileSync(info.panelTokenFile, 'utf8').trim()).toBe(token);
    const rotated = await api.value(track('endpoint.rotateToken'), { kind: 'panel' });
    expect(rotated.token).not.toBe(token);
    const old = await fetch(`${t.baseUrl()}/api/call/endpoint.info`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(old.status).toBe(401);
    const fresh = await fetch(`${t.baseUrl()}/api/call/endpoint.info`, { method: 'POST', headers: { authorization: `Bearer ${rotated.token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(fresh.status).toBe(200);
  });

  it('lists a tool call waiting for approval and answers it', async () => {
    t.app.core.settingsService.update({ toolPolicies: { 'everything/echo': 'ask' } });
    const mcp = await t.app.core.servers.prepare(['everything']);
    const code = 'r = await mcp_everything.echo(message="hi")\nprint(r["content"][0]["text"])';
    const handle = t.app.core.engine.submit({ code, servers: ['everything'], context: { mcp } }, { rpc: t.app.core.servers.rpcFor(['everything']) });
    const changed = await api.next('approvals.changed', (e) => e.pending.some((p) => p.runId === handle.id));
    const listed = await api.value(track('approvals.list'), {});
    expect(listed).toEqual(changed.pending);
    expect(listed[0]).toMatchObject({ runId: handle.id, server: 'everything', tool: 'echo', args: { message: 'hi' } });
    expect(await api.value(track('approvals.decide'), { id: listed[0]!.id, decision: 'allow-once' })).toEqual({ decided: true });
    const result = await handle.result;
    expect(result.stdout).toBe('Echo: hi\n');
    const resolved = await api.next('approvals.changed', (e) => e.last?.id === listed[0]!.id);
    expect(resolved).toMatchObject({ pending: [], last: { decision: 'allow-once', by: 'panel', tool: 'echo' } });
  });

  it('lists a live session with its memory, ends it with sessions.close, and records its call in the history', async () => {
    const sessions = t.app.core.sessions!;
    const open = sessions.begin({ key: `test:${transport}`, client: { name: 'vitest', version: null } }, 'new');
    if (!open.ok) throw new Error(open.message);
    const handle = t.app.core.engine.submit({ code: 'kept = 1', session: { id: open.id, call: open.call } }, { session: open.binding });
    expect((await handle.result).exitReason).toBe('success');
    await api.next('sessions.changed', (e) => e.sessions.some((s) => s.id === open.id && !s.busy));
    const listed = await api.value(track('sessions.list'), {});
    expect(listed).toEqual([expect.objectContaining({ id: open.id, calls: 1, busy: false, client: { name: 'vitest', version: null }, memoryBytes: expect.any(Number) })]);
    expect(listed[0]!.memoryBytes).toBeGreaterThan(0);
    const name = listed[0]!.containerName!;
    expect(await api.value(track('sessions.close'), { id: open.id })).toEqual({ closed: true });
    await api.next('sessions.changed', (e) => !e.sessions.some((s) => s.id === open.id));
    expect(await api.value('sessions.list', {})).toEqual([]);
    expect(await api.value('sessions.close', { id: open.id })).toEqual({ closed: false });
    expect(await waitFor(() => !containersOf(t.app.core.engine.owner.instanceId).includes(name), 15_000)).toBe(true);
    expect((await api.value('executions.get', { id: handle.id }))?.session).toEqual({ id: open.id, call: 1 });
  });

  it('folders.pick: no desktop picker in this app, so refused over either transport, naming where folders are chosen', async () => {
    const answer = await api.call(track('folders.pick'), {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('Limits › Folders') } });
  });

  it('answers bad arguments with a field error, not an exception', async () => {
    const answer = await api.call('executions.get', {} as never);
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_request', fields: { id: expect.any(String) } } });
  });
});

describe.skipIf(!sandbox.available)('control contract coverage', () => {
  it('every contract method was exercised over IPC (and so over HTTP too)', () => {
    expect([...exercised].sort()).toEqual([...METHOD_NAMES].sort());
  });
});
