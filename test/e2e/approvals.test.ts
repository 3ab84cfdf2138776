// Approvals in the panel: code calls a destructive tool, the question appears in Live with the tool and
// its arguments, and clicking Allow once lets the call through; Deny makes the code get ToolCallDenied.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFailed } from 'vitest';
import { apiCall, e2e, pageErrors, panelAndAgent, resultText, screenshot } from './harness.js';

const FIXTURE = path.resolve('test/fixtures/effects-mcp-server.mjs');
/** Anything a terminal obeys or a renderer hides. */
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;
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

  it('forged tool names never become questions; a question with escapes and bidi characters shows none of them raw', async () => {
    onTestFailed(async () => {
      await screenshot(env.page, 'approvals-forged-failed');
    });
    await env.page.goto(`${env.served.baseUrl}/#/live`);
    const hostile = '\\x1b[2J\\x1b]0;pwned\\x07\\u202etxt.exe\\u200b';
    const source = [
      'import mcp.runtime as runtime',
      'from mcp.runtime import ToolCallDenied',
      'for forged in ["delete_item\\x1b[31m", "delete\\u202e_item", "wipe_everything"]:',
      '    try:',
      '        await runtime.call_tool("effects", forged, {})',
      '    except ToolCallDenied:',
      '        print("refused")',
      `print("${hostile}")`,
      `r = await mcp_effects.delete_item(name="${hostile}") # \u001b[31m\u202e innocent \u2066`,
      'print(r["content"][0]["text"])',
    ].join('\n');
    const before = deletes();
    const pending = env.client.callTool({ name: 'run_python', arguments: { code: source, servers: ['effects'] } }, undefined, { timeout: 120_000 });
    const question = env.page.getByRole('article', { name: 'effects/delete_item' });
    await question.waitFor({ timeout: 60_000 });
    // Only the listed tool was asked about.
    expect(await env.page.locator('article.approval').count()).toBe(1);
    expect(await apiCall<unknown[]>(env.served, 'approvals.list')).toHaveLength(1);
    const shown = (await question.textContent()) ?? '';
    expect(shown).not.toMatch(RAW);
    expect(shown).toContain('"name": "\\u001b[2J\\u001b]0;pwned\\u0007\\u202etxt.exe\\u200b"');
    expect(await question.locator('figcaption').textContent()).toBe('Code line, as reported by the sandbox');
    expect(await question.locator('.approval-code').textContent()).toBe(`line 9: r = await mcp_effects.delete_item(name="${hostile}") # innocent`);
    await screenshot(env.page, 'approvals-hostile');
    const [waiting] = await apiCall<{ runId: string }[]>(env.served, 'approvals.list');
    await question.getByRole('button', { name: 'Allow once' }).click();
    expect(resultText(await pending)).toMatch(/^refused\nrefused\nrefused\n/);
    expect(deletes()).toBe(before + 1);

    // History: one decision, the refused names recorded once and nameless, and nothing raw on the page.
    await env.page.goto(`${env.served.baseUrl}/#/history/${waiting!.runId}`);
    const decisions = env.page.getByRole('list', { name: 'Approval decisions' });
    await decisions.waitFor({ timeout: 20_000 });
    expect(await decisions.getByRole('listitem').count()).toBe(1);
    await expect.poll(() => env.page.locator('.hist-tl-label').allTextContents()).toEqual(['effects.(unlisted tool)', 'effects.delete_item']);
    const page = (await env.page.locator('main').textContent()) ?? '';
    expect(page).not.toMatch(RAW);
    // The code block shows the code; the record of the calls names no refused tool.
    expect(await env.page.locator('.hist-timeline').textContent()).not.toContain('wipe_everything');
    expect(pageErrors(env.page)).toEqual([]);
  });
});
