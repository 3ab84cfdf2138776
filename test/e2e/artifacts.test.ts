// A plot made by an MCP client's run shows up as a thumbnail in Live and in the run's History detail, in
// real Chromium under the panel's CSP (blob: images): open shows it larger, save downloads the same bytes,
// and an SVG display is a file chip, never rendered.
import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { e2e, launchChromium, mcpClient, openPanel, pageErrors, screenshot, startServe, type Served } from './harness.js';

const PLOT = `
import matplotlib.pyplot as plt
plt.plot([1, 3, 2, 5])
plt.title('Sales')
plt.show()

class Badge:
    def _repr_svg_(self):
        return '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><circle r="9" cx="10" cy="10"/></svg>'

display(Badge())
print('plotted')
`;

/** The image really decoded (a blocked or broken image has naturalWidth 0). */
const decodedWidth = (img: Locator) => img.evaluate((el) => (el as HTMLImageElement).complete ? (el as HTMLImageElement).naturalWidth : 0);

describe.skipIf(!e2e.available)('panel: figures', () => {
  let served: Served;
  let browser: Browser;
  let page: Page;
  let client: Client;
  let result: CallToolResult;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    served = await startServe({ poolSize: 1 });
    browser = await launchChromium();
    page = await openPanel(browser, served);
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to load/i.test(m.text())) cspViolations.push(m.text());
    });
    client = await mcpClient(served, 'plot-agent');
    await page.goto(`${served.baseUrl}/#/live`);
    result = (await client.callTool({ name: 'run_python', arguments: { code: PLOT, timeout: 60 } }, undefined, { timeout: 90_000 })) as CallToolResult;
  });
  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await served?.stop();
  });

  it('the MCP result has the figure inline and the SVG as a link', () => {
    expect(result.isError).toBe(false);
    expect(result.content.map((c) => c.type)).toEqual(['text', 'text', 'image', 'resource_link']);
  });

  it('Live shows the finished run’s figure as a thumbnail from a blob URL, and the SVG as a chip', async () => {
    onTestFailed(async () => {
      await screenshot(page, 'figures-live-failed');
    });
    const section = page.getByRole('region', { name: /^Figures/ });
    const img = section.getByRole('list', { name: 'Figures and images' }).getByRole('img');
    await img.waitFor({ timeout: 30_000 });
    expect(await img.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => decodedWidth(img), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await img.getAttribute('alt')).toMatch(/^figure figure-1\.png: 'Sales', \d+×\d+$/);
    const files = section.getByRole('list', { name: 'Files' });
    expect(await files.textContent()).toContain('display-1.svg');
    // Exactly one image on the page: the SVG is never rendered, not even through a blob.
    expect(await page.locator('img').count()).toBe(1);
    expect(await page.locator('svg circle').count()).toBe(0);
    await screenshot(page, 'figures-live');
  });

  it('opens a larger view in a dialog, and Save downloads the same bytes the agent got', async () => {
    const section = page.getByRole('region', { name: /^Figures/ });
    await section.getByRole('button', { name: /^Open figure figure-1\.png/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Sales' });
    await dialog.waitFor({ timeout: 5_000 });
    await expect.poll(() => decodedWidth(dialog.getByRole('img')), { timeout: 10_000 }).toBeGreaterThan(0);
    await screenshot(page, 'figures-open');
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Save figure-1.png' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('figure-1.png');
    const inline = result.content.find((c) => c.type === 'image') as { data: string };
    expect(readFileSync((await saved.path())!).toString('base64')).toBe(inline.data);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: 5_000 });
  });

  it('the run’s History detail shows the same thumbnail', async () => {
    onTestFailed(async () => {
      await screenshot(page, 'figures-history-failed');
    });
    await page.getByRole('region', { name: /^Figures/ }).getByRole('link').click();
    const detail = page.locator('aside.hist-detail');
    await detail.waitFor({ timeout: 10_000 });
    await detail.getByRole('heading', { name: 'Figures and files (2)' }).waitFor({ timeout: 10_000 });
    const img = detail.getByRole('list', { name: 'Figures and images' }).getByRole('img');
    await img.waitFor({ timeout: 10_000 });
    expect(await img.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => decodedWidth(img), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await detail.getByRole('list', { name: 'Files' }).textContent()).toContain('display-1.svg');
    await img.scrollIntoViewIfNeeded();
    await screenshot(page, 'figures-history');
    expect(cspViolations).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  });
});
