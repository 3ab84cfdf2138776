// Health: every check from the report is shown as a row with its state, and the probe runs again on
// request (a new report, with a new time, reaches the page).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthReport } from '../../shared/health.js';
import { apiCall, e2e, launchChromium, openPanel, pageErrors, screenshot, startServe, type Served } from './harness.js';

describe.skipIf(!e2e.available)('panel: Health', () => {
  let served: Served;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    served = await startServe();
    browser = await launchChromium();
    page = await openPanel(browser, served);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('shows every check of the report, with its state', async () => {
    await page.goto(`${served.baseUrl}/#/health`);
    let report: HealthReport | null = null;
    await expect.poll(async () => (report = await apiCall<HealthReport | null>(served, 'health.get')) !== null, { timeout: 60_000 }).toBe(true);
    const rows = page.getByRole('list', { name: 'Health checks' }).getByRole('listitem');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(report!.checks.length);
    const texts = await rows.allTextContents();
    for (const check of report!.checks) expect(texts.some((t) => t.includes(check.label))).toBe(true);
    // The sandbox checks and the service checks (SPEC 5) are all there.
    for (const id of ['runtime', 'image', 'enforced.memory', 'enforced.pids', 'enforced.network', 'enforced.readOnlyRoot', 'endpoint', 'pool', 'servers']) expect(report!.checks.map((c) => c.id)).toContain(id);
    expect(await page.getByText('Code can run safely.').isVisible()).toBe(true);
    await screenshot(page, 'health');
  });

  it('runs the probe again', async () => {
    const before = (await apiCall<HealthReport>(served, 'health.get')).checkedAt;
    await page.getByRole('button', { name: 'Run probe again' }).click();
    await expect.poll(() => page.getByRole('button', { name: /Probing/ }).isVisible(), { timeout: 5000 }).toBe(true);
    await expect.poll(async () => (await apiCall<HealthReport>(served, 'health.get')).checkedAt, { timeout: 60_000 }).toBeGreaterThan(before);
    const after = (await apiCall<HealthReport>(served, 'health.get')).checkedAt;
    await expect.poll(() => page.getByRole('button', { name: 'Run probe again' }).isVisible(), { timeout: 30_000 }).toBe(true);
    const shown = await page.getByText(/^Checked /).textContent();
    expect(shown).toBe(`Checked ${await page.evaluate((t) => new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }), after)}`);
    expect(pageErrors(page)).toEqual([]);
  });

  it('probes every runtime installed here on request and shows each limit per runtime', async () => {
    const inUse = (await apiCall<HealthReport>(served, 'health.get')).runtime!.name;
    await page.getByRole('button', { name: 'Probe every runtime' }).click();
    const table = page.getByRole('table', { name: 'Limits per runtime' });
    await table.waitFor({ timeout: 150_000 });
    for (const limit of ['Memory limit', 'No network', 'Read-only root', 'No capabilities']) {
      expect(await table.getByRole('img', { name: `${inUse}, ${limit}: enforced`, exact: true }).count()).toBe(1);
    }
    await table.scrollIntoViewIfNeeded();
    await screenshot(page, 'health-tiers');
    expect(pageErrors(page)).toEqual([]);
  });
});
