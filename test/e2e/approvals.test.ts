// Approvals in the panel: code calls a destructive tool, the question appears in Live with the tool and
// its arguments, and clicking Allow once lets the call through; Deny makes the code get ToolCallDenied.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFailed } from 'vitest';
import { apiCall, e2e, pageErrors, panelAndAgent, resultText, screenshot } from './harness.js';

const FIXTURE = path.resolve('test/fixtures/effects-mcp-server.mjs');
const code = (name: string) =>
  ['from mcp.runtime import ToolCallDenied', 'try:', `    r = await mcp_effects.delete_item(name="${name}")`, '    print(r["content"][0]["text"])', 'except ToolCallDenied as e:', '    print("denied:", e)'].join('\n');

describe.skipIf(!e2e.available)('panel: approvals', () => {
  const effectsFile = path.join(mkdtempSync(path.join(tmpdir(), 'sandbar-e2e-effects-')), 'effects.json');
  const deletes = () => {
    try {
      return (JSON.parse(readFileSync(effectsFile, 'utf8')) as { deletes?: number }).deletes ?? 0;
    } catch {
      return 0;
    }
  };
  const env = panelAndAgent({ mcpServers: { effects: { command: process.execPath, args: [FIXTURE], env: { EFFECTS_FILE: effectsFile } } } });

  it('shows the waiting call in Live; Allow once lets it through, Deny refuses it', async () => {
    onTestFailed(async () => {
      await screenshot(env.page, 'approvals-failed');
    });
    await env.page.goto(`${env.served.baseUrl}/#/live`);
    const run = (name: string) => env.client.callTool({ name: 'run_python', arguments: { code: code(name), servers: ['effects'] } }, undefined, { timeout: 120_000 });

    const allowed = run('first');
    const question = env.page.getByRole('article', { name: 'effects/delete_item' });
    await question.waitFor({ timeout: 60_000 });
    await expect.poll(() => question.textContent()).toContain('"name": "first"');
    // The line of the code that made the call, as the agent reported it.
    expect(await question.locator('.approval-code').textContent()).toBe('line 3: r = await mcp_effects.delete_item(name="first")');
    expect(deletes()).toBe(0);
    await screenshot(env.page, 'approvals-waiting');
    await question.getByRole('button', { name: 'Allow once' }).click();
    expect(resultText(await allowed)).toBe('deleted first (1)');
    await question.waitFor({ state: 'detached', timeout: 20_000 });

    const denied = run('second');
    await question.waitFor({ timeout: 60_000 });
    const [waiting] = await apiCall<{ runId: string }[]>(env.served, 'approvals.list');
    await question.getByRole('button', { name: 'Deny' }).click();
    expect(resultText(await denied)).toMatch(/^denied: effects\/delete_item was denied/);
    expect(deletes()).toBe(1);

    // The decision is recorded with the run and listed in its History detail.
    await env.page.goto(`${env.served.baseUrl}/#/history/${waiting!.runId}`);
    const decisions = env.page.getByRole('list', { name: 'Approval decisions' });
    await decisions.waitFor({ timeout: 20_000 });
    expect(await decisions.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^denied effects\/delete_item by panel, /)]);
    await screenshot(env.page, 'approvals-history');
    expect(pageErrors(env.page)).toEqual([]);
  });
});
