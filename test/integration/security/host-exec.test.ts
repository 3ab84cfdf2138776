// The attack the least-privilege issue measured, against a real `sandbar serve`: a token-holder adds a
// server whose command writes a marker file, then restarts it. It must be refused, nothing written, no
// marker. And the other bad inputs of that review: a 3,000-deep patch, NUL in a search, escape sequences
// in recorded code printed by `sandbar history`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../helpers.js';
import { baseEnv, killAllChildren, REPO_ROOT, SANDBAR_BIN } from '../mcp/real-clients-helpers.js';
import { startServed, textOf, type Served } from './serve-helpers.js';

function nested(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { command: 'x' };
  for (let i = 1; i < depth; i++) node = { a: node };
  return node;
}

describe.skipIf(!sandbox.available)('least privilege: nothing over HTTP changes what the host executes', () => {
  let s: Served;
  let settingsText: string;
  const settingsFile = () => path.join(s.home, 'settings.json');

  beforeAll(async () => {
    s = await startServed();
    settingsText = readFileSync(settingsFile(), 'utf8');
  });

  afterAll(async () => {
    await s?.stop();
    killAllChildren();
  });

  it('refuses the measured host-exec attempt with either token: no write, no marker', async () => {
    const marker = path.join(s.home, 'pwned');
    const patch = { mcpServers: { x: { command: '/bin/sh', args: ['-c', `id > ${marker}`] } } };
    for (const token of [s.panelToken(), s.clientToken()]) {
      const update = await s.api(token, 'settings.update', { patch });
      expect(update.body.ok).toBe(false);
      if (token === s.panelToken()) {
        expect(update.body).toMatchObject({ error: { code: 'forbidden', fields: { 'mcpServers.x': expect.stringContaining('settings.json') } } });
      } else {
        expect(update.status).toBe(401);
      }
      const restart = await s.api(token, 'servers.restart', { name: 'x' });
      expect(restart.body.ok).toBe(false);
    }
    // The everything server is running as configured; editing its command is refused too.
    const edit = await s.api(s.panelToken(), 'settings.update', { patch: { mcpServers: { everything: { command: '/bin/sh', args: ['-c', `id > ${marker}`] } } } });
    expect(edit.body).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await s.api(s.panelToken(), 'servers.restart', { name: 'everything' });
    await new Promise((r) => setTimeout(r, 1000));
    expect(existsSync(marker)).toBe(false);
    expect(readFileSync(settingsFile(), 'utf8')).toBe(settingsText);
  });

  it.each([
    ['runtime', { runtime: '/bin/sh' }],
    ['ociRuntime', { ociRuntime: '/tmp/evil-runc' }],
    ['seccomp', { seccomp: 'runtime-default' }],
    ['importClients', { importClients: ['claude-code'] }],
    ['allowSelfServer', { allowSelfServer: true }],
  ])('refuses %s over HTTP with forbidden and writes nothing', async (field, patch) => {
    const answer = await s.api(s.panelToken(), 'settings.update', { patch });
    expect(answer.body).toMatchObject({ ok: false, error: { code: 'forbidden', fields: { [field]: expect.stringContaining('desktop app') } } });
    expect(readFileSync(settingsFile(), 'utf8')).toBe(settingsText);
  });

  it('refuses folders over HTTP with forbidden (a folder hands sandboxes this computer\'s files) and writes nothing', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'sandbar-http-folder-'));
    const answer = await s.api(s.panelToken(), 'settings.update', { patch: { folders: [{ name: 'data', path: folder, writable: true }] } });
    expect(answer.body).toMatchObject({ ok: false, error: { code: 'forbidden', fields: { folders: expect.stringContaining('desktop app') } } });
    expect(readFileSync(settingsFile(), 'utf8')).toBe(settingsText);
  });

  it('still lets the panel deny and allow an existing server over HTTP', async () => {
    expect((await s.api(s.panelToken(), 'servers.deny', { name: 'everything' })).body).toMatchObject({ ok: true });
    const client = await s.mcp();
    const refused = await client.callTool({ name: 'run_python', arguments: { code: 'print(1)', servers: ['everything'] } });
    expect(textOf(refused)).toContain('denied');
    expect((await s.api(s.panelToken(), 'servers.allow', { name: 'everything' })).body).toMatchObject({ ok: true });
    settingsText = readFileSync(settingsFile(), 'utf8');
  });

  it('refuses a 3,000-deep patch with a validation error, leaves the file byte-identical, and the next start works', async () => {
    const answer = await s.api(s.panelToken(), 'settings.update', { patch: { mcpServers: { deep: nested(3000) } } });
    expect(answer.body).toMatchObject({ ok: false, error: { code: 'invalid_config', message: expect.stringContaining('nested') } });
    const big = await s.api(s.panelToken(), 'settings.update', { patch: { importClients: Array.from({ length: 30_000 }, () => 'cursor') } });
    expect(big.body).toMatchObject({ ok: false, error: { code: 'invalid_config', message: expect.stringContaining('256 KiB') } });
    expect(readFileSync(settingsFile(), 'utf8')).toBe(settingsText);
    const { home, userHome } = s;
    await s.stop();
    s = await startServed({ home: { home, userHome } });
    expect((await s.api(s.panelToken(), 'settings.get')).body).toMatchObject({ ok: true });
  });

  it('answers a search with NUL or a 17-status filter with a validation error, never internal', async () => {
    for (const args of [{ search: 'pan\u0000das' }, { search: '\u001b[2J' }, { status: Array.from({ length: 17 }, () => 'error') }]) {
      const answer = await s.api(s.panelToken(), 'executions.list', args);
      expect(answer.body, JSON.stringify(args)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
  });

  it('`sandbar history` prints recorded code without its escape sequences', async () => {
    const client = await s.mcp();
    const code = '# \u001b]0;pwned\u0007\u001b[2J\u009b31m\nprint("\\u001b[31mred")';
    await client.callTool({ name: 'run_python', arguments: { code } });
    const env = baseEnv({ SANDBAR_HOME: s.home });
    const table = spawnSync(process.execPath, [SANDBAR_BIN, 'history', '--limit', '5'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    expect(table.status, table.stderr).toBe(0);
    // Sequences go whole (the OSC title with its text), not just their ESC bytes.
    expect(table.stdout).toContain('# print("\\u001b[31mred")');
    expect(table.stdout).not.toContain('pwned');
    // eslint-disable-next-line no-control-regex
    expect(table.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    const json = spawnSync(process.execPath, [SANDBAR_BIN, 'history', '--limit', '5', '--json'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    expect(json.status, json.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(json.stdout.trimEnd()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    const page = JSON.parse(json.stdout) as { items: { codePreview: string }[] };
    expect(page.items.some((i) => i.codePreview === code)).toBe(true);
  });
});
