// Limits › Folders and a run's folders, in real Chromium against a real `sandbar serve`: the card lists the
// folders with their mount paths, names the refused one and its rule (from health), and in a browser offers
// no way to change them; a run reads the folder, and its History detail lists the folders it had.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchChromium, mcpClient, openPanel, pageErrors, resultText, screenshot, startServe, type Served } from './harness.js';

describe.skipIf(!e2e.available)('panel: the user\'s folders', () => {
  const data = mkdtempSync(path.join(tmpdir(), 'sandbar-e2e-folder-'));
  writeFileSync(path.join(data, 'numbers.csv'), 'a,b\n1,2\n');
  // mkdtemp makes it owner-only; the sandbox user (65534) reads what others may read.
  chmodSync(data, 0o755);
  let served: Served;
  let browser: Browser;
  let page: Page;
  let client: Client;

  beforeAll(async () => {
    served = await startServe({ poolSize: 0, folders: [{ name: 'data', path: data }, { name: 'system', path: '/etc' }] });
    client = await mcpClient(served, 'folders-agent');
    browser = await launchChromium();
    page = await openPanel(browser, served);
  });
  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await served?.stop();
  });

  it('Limits › Folders lists the folder, names the refused one and its rule, and offers no change in a browser', async () => {
    await page.goto(`${served.baseUrl}/#/limits`);
    const card = page.getByRole('region', { name: 'Folders' });
    await card.waitFor({ timeout: 15_000 });
    const list = card.getByRole('list', { name: 'Folders in the sandbox' });
    await expect.poll(() => list.getByText('/mnt/data').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await list.getByText(data, { exact: true }).isVisible()).toBe(true);
    await expect.poll(async () => (await card.getByTestId('folders-refused').textContent()) ?? '', { timeout: 15_000 }).toContain('system (/etc) is /etc: it belongs to the system');
    expect(await card.getByRole('button', { name: 'Add folder…' }).count()).toBe(0);
    expect(await card.getByText(/a browser cannot change them/).isVisible()).toBe(true);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'limits-folders');
  });

  it('a run reads the folder, and its History detail lists the folders it had', async () => {
    const result = await client.callTool({ name: 'run_python', arguments: { code: 'import os; print(sorted(os.listdir("/mnt")), open("/mnt/data/numbers.csv").read().splitlines()[1])' } });
    expect(resultText(result)).toContain("['data'] 1,2");
    await page.goto(`${served.baseUrl}/#/history`);
    const rows = page.getByRole('grid', { name: 'Execution history' }).locator('[role="rowgroup"].hist-body [role="row"][aria-rowindex]');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(1);
    await rows.first().click();
    await page.keyboard.press('Enter');
    const detail = page.locator('aside.hist-detail');
    await detail.waitFor({ timeout: 10_000 });
    const list = detail.getByRole('list', { name: 'Folders the run had' });
    await expect.poll(() => list.isVisible(), { timeout: 10_000 }).toBe(true);
    expect((await list.textContent())?.replace(/\s+/g, " ")).toBe(`${data} at /mnt/data read-only`);
    await screenshot(page, 'history-folders');
    expect(pageErrors(page)).toEqual([]);
  });
});
