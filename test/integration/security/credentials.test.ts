// Two credentials against a real `sandbar serve` with real podman: the client token runs code over /mcp and
// opens nothing else; the panel token opens the control API. Files at rest are owner-only, refusals name
// no path, and `--no-print-token` keeps the token out of logged output.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, waitFor } from '../helpers.js';
import { killAllChildren } from '../mcp/real-clients-helpers.js';
import { newHome, startServed, textOf, type Served } from './serve-helpers.js';

const mode = (file: string) => statSync(file).mode & 0o777;

describe.skipIf(!sandbox.available)('least privilege: credentials and files', () => {
  let s: Served;

  beforeAll(async () => {
    // An older Sandbar left the home 0755 and a readable history: the next start tightens both.
    const fresh = newHome();
    chmodSync(fresh.home, 0o755);
    writeFileSync(path.join(fresh.home, 'history.db'), '', { mode: 0o644 });
    chmodSync(path.join(fresh.home, 'history.db'), 0o644);
    s = await startServed({ home: fresh });
  });

  afterAll(async () => {
    await s?.stop();
    killAllChildren();
  });

  it('the client token runs code over /mcp, and every /api call with it is refused with no effect', async () => {
    const client = await s.mcp();
    const run = await client.callTool({ name: 'run_python', arguments: { code: 'print(6 * 7)' } });
    expect(textOf(run)).toContain('42');

    const before = readFileSync(path.join(s.home, 'settings.json'), 'utf8');
    for (const [method, args] of [
      ['settings.get', {}],
      ['settings.update', { patch: { poolSize: 3 } }],
      ['endpoint.token', { kind: 'panel' }],
      ['servers.restart', { name: 'everything' }],
      ['live.setPaused', { paused: true }],
    ] as const) {
      const answer = await s.api(s.clientToken(), method, args);
      expect(answer.status, method).toBe(401);
      expect(answer.body.ok).toBe(false);
    }
    const events = await fetch(`${s.origin}/api/events`, { headers: { authorization: `Bearer ${s.clientToken()}` } });
    expect(events.status).toBe(401);
    expect(readFileSync(path.join(s.home, 'settings.json'), 'utf8')).toBe(before);
    expect((await client.callTool({ name: 'run_python', arguments: { code: 'print("still running")' } })).isError).toBe(false);
  });

  it('the panel token opens the control API but not /mcp', async () => {
    const view = await s.api(s.panelToken(), 'settings.get');
    expect(view).toMatchObject({ status: 200, body: { ok: true } });
    const mcp = await fetch(`${s.serve.url}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.panelToken()}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(mcp.status).toBe(401);
  });

  it('rotating one token leaves the other alone', async () => {
    const panel = s.panelToken();
    const oldClient = s.clientToken();
    const rotated = await s.api(panel, 'endpoint.rotateToken', { kind: 'client' });
    expect(rotated.body).toMatchObject({ ok: true });
    const newClient = (rotated.body as unknown as { value: { token: string } }).value.token;
    expect(newClient).not.toBe(oldClient);
    expect(s.clientToken()).toBe(newClient);
    expect(s.panelToken()).toBe(panel);
    expect((await s.api(panel, 'endpoint.info')).status).toBe(200);
    const refused = await fetch(s.serve.url, { method: 'GET', headers: { authorization: `Bearer ${oldClient}` } });
    expect(refused.status).toBe(401);
    const client = await s.mcp();
    expect((await client.callTool({ name: 'run_python', arguments: { code: 'print(1)' } })).isError).toBe(false);
  });

  it('keeps the home 0700 and the tokens and history (with its -wal and -shm) 0600', () => {
    expect(mode(s.home)).toBe(0o700);
    for (const file of ['token', 'panel-token', 'history.db', 'history.db-wal', 'history.db-shm']) {
      const full = path.join(s.home, file);
      expect(existsSync(full), file).toBe(true);
      expect(mode(full), file).toBe(0o600);
    }
  });

  it('answers 401 without naming any path of the machine', async () => {
    const answers = [
      await fetch(`${s.origin}/api/call/settings.get`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      await fetch(`${s.origin}/api/call/settings.get`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer nope' }, body: '{}' }),
      await fetch(s.serve.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      const body = await answer.text();
      expect(body).not.toContain(s.home);
      expect(body).not.toContain(path.basename(s.home));
    }
  });

  it('writes the client token into a client config 0600, and the preview says the mode changes', async () => {
    const file = path.join(s.userHome, '.claude.json');
    mkdirSync(path.join(s.userHome, '.claude'), { recursive: true });
    writeFileSync(file, '{\n  "mcpServers": {}\n}\n');
    chmodSync(file, 0o644);
    const preview = await s.api(s.panelToken(), 'clients.preview', { id: 'claude-code', action: 'add' });
    expect(preview.body).toMatchObject({ ok: true, value: { changed: true, modeChange: { from: '0644', to: '0600' } } });
    const result = await s.api(s.panelToken(), 'clients.configure', { id: 'claude-code', action: 'add' });
    expect(result.body).toMatchObject({ ok: true });
    expect(mode(file)).toBe(0o600);
    const written = readFileSync(file, 'utf8');
    expect(written).toContain(s.clientToken());
    expect(written).not.toContain(s.panelToken());
  });
});

describe.skipIf(!sandbox.available)('sandbar serve --no-print-token', () => {
  it('prints where the tokens are, and neither token', async () => {
    const s = await startServed({ args: ['--no-print-token'] });
    try {
      await waitFor(() => s.serve.stdout().includes('Panel:'), 5000, 20);
      const out = s.serve.stdout();
      expect(out).toContain(`Panel token file: ${path.join(s.home, 'panel-token')}`);
      expect(out).not.toContain(s.panelToken());
      expect(out).not.toContain(s.clientToken());
      expect(out).not.toMatch(/#token=[0-9a-f]/);
    } finally {
      await s.stop();
    }
  });
});
