// History: after 20 runs, a search finds the one run with a unique word; its detail shows its code,
// output and tool calls; Re-run creates a new row. Export downloads the run as JSON.
import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchChromium, mcpClient, openPanel, pageErrors, screenshot, startServe, type Served } from './harness.js';

const UNIQUE = 'quokkafandango';
const SPECIAL = `r = await mcp_everything.echo(message="${UNIQUE} says hi")\nprint(r["content"][0]["text"])`;

describe.skipIf(!e2e.available)('panel: History', () => {
  let served: Served;
  let browser: Browser;
  let page: Page;
  let client: Client;
  const rows = () => page.getByRole('grid', { name: 'Execution history' }).locator('[role="rowgroup"].hist-body [role="row"][aria-rowindex]');

  beforeAll(async () => {
    served = await startServe({ poolSize: 2 });
    client = await mcpClient(served, 'history-agent');
    for (let i = 0; i < 19; i++) await client.callTool({ name: 'run_python', arguments: { code: `print("ordinary run ${i}", ${i} * 3)` } });
    await client.callTool({ name: 'run_python', arguments: { code: SPECIAL, servers: ['everything'] } });
    browser = await launchChromium();
    page = await openPanel(browser, served);
  });
  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await served?.stop();
  });

  it('lists the 20 runs and finds the one with a unique word, with the hit highlighted', async () => {
    await page.goto(`${served.baseUrl}/#/history`);
    await expect.poll(() => rows().count(), { timeout: 20_000 }).toBe(20);
    await screenshot(page, 'history');
    // The beginning of the word is enough; the whole word is highlighted.
    await page.getByRole('searchbox', { name: 'Search code and output' }).fill(UNIQUE.slice(0, 7));
    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(1);
    expect(await rows().first().locator('mark').first().textContent()).toMatch(new RegExp(`^${UNIQUE}$`, 'i'));
    // Quotes mean the exact word: its beginning alone finds nothing.
    await page.getByRole('searchbox', { name: 'Search code and output' }).fill(`"${UNIQUE.slice(0, 7)}"`);
    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(0);
    await page.getByRole('searchbox', { name: 'Search code and output' }).fill(UNIQUE);
    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(1);
    expect(await rows().first().locator('mark').first().textContent()).toMatch(new RegExp(UNIQUE, 'i'));
    await screenshot(page, 'history-search');
  });

  it('opens its detail: the code, the output and the tool-call timeline', async () => {
    await rows().first().click();
    await page.keyboard.press('Enter');
    const detail = page.locator('aside.hist-detail');
    await detail.waitFor({ timeout: 10_000 });
    await expect.poll(() => detail.getByRole('heading', { name: /Tool calls \(1\)/ }).isVisible(), { timeout: 10_000 }).toBe(true);
    const text = (await detail.textContent())!;
    expect(text).toContain(`mcp_everything.echo(message="${UNIQUE} says hi")`);
    expect(await detail.getByRole('region', { name: 'stdout' }).textContent()).toContain(`Echo: ${UNIQUE} says hi`);
    expect(text).toMatch(/everything\W+echo/);
    expect(text).toContain('success');
    await screenshot(page, 'history-detail');

    const download = page.waitForEvent('download');
    await detail.getByRole('button', { name: 'Export as JSON' }).click();
    const file = await (await download).path();
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    expect(exported).toMatchObject({ code: SPECIAL, status: 'success', toolCalls: [{ server: 'everything', tool: 'echo', isError: false }] });
  });

  it('Re-run creates a new row for the same code', async () => {
    const detail = page.locator('aside.hist-detail');
    await detail.getByRole('button', { name: 'Re-run' }).click();
    await expect.poll(() => detail.textContent(), { timeout: 30_000 }).toMatch(/Started as/);
    await page.keyboard.press('Escape');
    // Only the server's index knows whether a new run matches the search: the table offers to search again.
    const again = page.getByRole('button', { name: /since this search — search again/ });
    await again.waitFor({ timeout: 30_000 });
    await again.click();
    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(2);
    expect(await rows().first().textContent()).toMatch(/panel/);
    await screenshot(page, 'history-rerun');
    expect(pageErrors(page)).toEqual([]);
  });
});
