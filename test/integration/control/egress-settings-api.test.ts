// Who may change egress, over the real control API of a whole app (real podman, both transports as in
// control-api.test.ts) and over MCP with the client token: the panel edits `egress`; `secrets` and
// `egressCaFile` are host-affecting (HTTP: `forbidden`; IPC: only through the desktop's confirmation, which
// sees names and hosts, never a value); the client token changes nothing. A refused change leaves the
// settings file byte for byte as it was.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostExecChange } from '../../../electron/settings/host-exec-fields.js';
import { containersOf, sandbox, waitFor } from '../helpers.js';
import { httpCaller, ipcCaller, startTestApp, type ApiCaller, type TestApp } from './control-helpers.js';

const VALUE = 'sk-control-api-secret-0123456789';
const SECRET = { secrets: { API_KEY: { value: VALUE, hosts: ['api.example.test'] } } };
const HOST_AFFECTING = [
  { secrets: { API_KEY: { value: '(hidden)', hosts: ['attacker.example'] } } },
  { secrets: { NEW_KEY: { env: 'HOME', hosts: ['attacker.example'] } } },
  { egressCaFile: '/tmp/evil-ca.pem' },
];

describe.skipIf(!sandbox.available).each(['http', 'ipc'] as const)('egress settings over %s', (transport) => {
  let t: TestApp;
  let api: ApiCaller;
  /** What the desktop's dialog was asked, and what it answers next. */
  const asked: HostExecChange[][] = [];
  let answer = false;
  const file = () => readFileSync(path.join(t.home, 'settings.json'), 'utf8');

  beforeAll(async () => {
    t = await startTestApp(SECRET, {}, { confirmHostExec: async (changes) => (asked.push(changes), answer) });
    api = transport === 'http' ? await httpCaller(t) : ipcCaller(t);
    // The start-up probe's container is done with before the tests (they are quicker than it).
    expect(await waitFor(async () => (await api.value('health.get', {})) !== null, 60_000)).toBe(true);
  });
  afterAll(async () => {
    api?.close();
    await t?.close();
    if (t) expect(await waitFor(() => containersOf(t.app.core.engine.owner.instanceId).length === 0, 20_000)).toBe(true);
  });

  it('edits the egress rules, announces them, and never shows the secret', async () => {
    const change = await api.value('settings.update', { patch: { egress: { allow: ['api.example.test:443', '*.example.org'], deny: ['10.0.0.0/8'] } } });
    expect(change.changed).toEqual(['egress.allow', 'egress.deny']);
    const event = await api.next('settings.changed', (e) => e.changed.includes('egress.allow'));
    expect(event.settings.egress).toEqual({ allow: ['api.example.test:443', '*.example.org'], deny: ['10.0.0.0/8'] });
    expect(JSON.parse(file()).egress.allow).toEqual(['api.example.test:443', '*.example.org']);
    const view = await api.value('settings.get', {});
    expect(view.settings.secrets.API_KEY).toMatchObject({ value: '(hidden)', hosts: ['api.example.test'] });
    for (const shown of [change, event, view]) expect(JSON.stringify(shown)).not.toContain(VALUE);
    const bad = await api.call('settings.update', { patch: { egress: { allow: ['https://api.example.test/'] } } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_config', fields: { 'egress.allow.0': expect.stringMatching(/not a URL/) } } });
  });

  it('refuses secrets and egressCaFile unless the desktop confirms, leaving the file byte-identical', async () => {
    const before = file();
    asked.length = 0;
    answer = false;
    for (const patch of HOST_AFFECTING) {
      const refused = await api.call('settings.update', { patch });
      expect(refused.ok, JSON.stringify(patch)).toBe(false);
      // Over HTTP no dialog is ever shown; over IPC the person said no.
      if (!refused.ok) expect(refused.error.code).toBe(transport === 'http' ? 'forbidden' : 'cancelled');
      if (!refused.ok && transport === 'http') expect(Object.keys(refused.error.fields ?? {}).join()).toMatch(/^(secrets\.(API_KEY|NEW_KEY)|egressCaFile)$/);
      expect(JSON.stringify(refused)).not.toContain(VALUE);
      expect(file()).toBe(before);
    }
    expect(asked.length).toBe(transport === 'http' ? 0 : HOST_AFFECTING.length);
    expect(JSON.stringify(asked)).not.toContain(VALUE);
    if (transport === 'http') return;
    // The dialog named where each secret comes from and where it goes.
    expect(asked[0]![0]).toEqual({ field: 'secrets.API_KEY', command: 'secret API_KEY from a typed-in value (hidden), sent in the Authorization header to attacker.example' });
    expect(asked[2]![0]).toEqual({ field: 'egressCaFile', command: 'egressCaFile: /tmp/evil-ca.pem' });
    answer = true;
    expect(await api.value('settings.update', { patch: { egressCaFile: '/tmp/company-ca.pem' } })).toMatchObject({ changed: ['egressCaFile'] });
    expect(JSON.parse(file())).toMatchObject({ egressCaFile: '/tmp/company-ca.pem', secrets: { API_KEY: { value: VALUE } } });
  });
});

describe.skipIf(!sandbox.available)('egress settings with the client token', () => {
  let t: TestApp;
  let client: Client | undefined;
  const file = () => readFileSync(path.join(t.home, 'settings.json'), 'utf8');

  beforeAll(async () => {
    t = await startTestApp(SECRET);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('changes nothing over the control API (401) or MCP, and the file stays byte-identical', async () => {
    const before = file();
    const desktop = ipcCaller(t);
    const { token: clientToken } = await desktop.value('endpoint.token', {});
    desktop.close();
    for (const patch of [{ egress: { allow: ['*.example.org'] } }, ...HOST_AFFECTING]) {
      const res = await fetch(`${t.baseUrl()}/api/call/settings.update`, {
        method: 'POST',
        headers: { authorization: `Bearer ${clientToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ patch }),
      });
      expect(res.status, JSON.stringify(patch)).toBe(401);
      expect(await res.text()).not.toContain(VALUE);
    }
    // MCP, the client token's own door, offers no way to settings: no such tool, no such method.
    client = new Client({ name: 'egress-settings-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl()}/mcp`), { requestInit: { headers: { authorization: `Bearer ${clientToken}` } } }));
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('run_python');
    expect(tools.filter((name) => /setting|egress|secret/i.test(name))).toEqual([]);
    await expect(client.request({ method: 'settings.update', params: { patch: { egress: { allow: ['*.example.org'] } } } } as never, EmptyResultSchema)).rejects.toThrow(/not found/i);
    expect(file()).toBe(before);
    expect(t.app.core.settingsService.get().egress.allow).toEqual([]);
  });
});
