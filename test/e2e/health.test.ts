// Health: every check from the report is shown as a row with its state; the rows about live things (pool,
// queue) follow them as Live does, without a probe; and the probe runs again on request (a new report, with
// a new probe time, reaches the page).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSnapshot } from '../../shared/contract.js';
import type { HealthReport } from '../../shared/health.js';
import { apiCall, e2e, launchChromium, mcpClient, openPanel, pageErrors, screenshot, startServe, type Served } from './harness.js';

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

  it('shows the pool and queue as Live does while they change, with no probe run in between', async () => {
    const probedAt = (await apiCall<HealthReport>(served, 'health.get')).probedAt;
    expect(probedAt).toEqual(expect.any(Number));
    const poolRow = page.getByRole('list', { name: 'Health checks' }).getByRole('listitem').filter({ hasText: 'Warm pool and queue' });
    const poolCard = page.getByRole('region', { name: 'Pool and queue' });
    // A bigger pool drains and refills: the row follows it to the end, as the card fed by Live's events does.
    // The pool's target follows the load (poolSize is its floor), so the figures are read from Live's
    // snapshot once the pool is full, and both views must show those.
    const settled = async () => {
      let pool: LiveSnapshot['pool'] | undefined;
      await expect.poll(async () => {
        pool = (await apiCall<LiveSnapshot>(served, 'live.snapshot')).pool;
        return pool.size >= 2 && pool.ready === pool.size && pool.starting === 0;
      }, { timeout: 90_000 }).toBe(true);
      return pool!;
    };
    const showsFull = async (size: number) => {
      await expect.poll(() => poolRow.textContent(), { timeout: 20_000 }).toMatch(new RegExp(`Pool ${size} of ${size} containers ready[;.].*0 running, 0 queued`));
      await expect.poll(() => poolCard.textContent(), { timeout: 10_000 }).toContain(`${size} ready, 0 starting, target ${size}`);
      expect(await poolCard.textContent()).toContain('0 running, 0 queued');
    };
    await apiCall(served, 'settings.update', { patch: { poolSize: 2 } });
    await showsFull((await settled()).size);
    await screenshot(page, 'health-live-pool');

    // A run going: both say one running, and both go back when it ends.
    const client = await mcpClient(served, 'health-live');
    try {
      const run = client.callTool({ name: 'run_python', arguments: { code: 'import time\ntime.sleep(4)\nprint("slept")' } });
      await expect.poll(() => poolRow.textContent(), { timeout: 20_000 }).toMatch(/\. 1 running, 0 queued/);
      expect(await poolCard.textContent()).toContain('1 running, 0 queued');
      await run;
      await showsFull((await settled()).size);
    } finally {
      await client.close();
    }
    // None of that waited for, or ran, the probe; the page says when it last ran.
    const now = await apiCall<HealthReport>(served, 'health.get');
    expect(now.probedAt).toBe(probedAt);
    expect(now.checkedAt).toBeGreaterThan(probedAt!);
    const shown = await page.getByTestId('probe-time').textContent();
    expect(shown).toBe(`Probe last ran ${await page.evaluate((t) => new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }), probedAt!)}`);
    expect(pageErrors(page)).toEqual([]);
  });

  it('runs the probe again', async () => {
    const before = (await apiCall<HealthReport>(served, 'health.get')).probedAt!;
    await page.getByRole('button', { name: 'Run probe again' }).click();
    await expect.poll(() => page.getByRole('button', { name: /Probing/ }).isVisible(), { timeout: 5000 }).toBe(true);
    await expect.poll(async () => (await apiCall<HealthReport>(served, 'health.get')).probedAt, { timeout: 60_000 }).toBeGreaterThan(before);
    const after = (await apiCall<HealthReport>(served, 'health.get')).probedAt!;
    await expect.poll(() => page.getByRole('button', { name: 'Run probe again' }).isVisible(), { timeout: 30_000 }).toBe(true);
    const shown = await page.getByTestId('probe-time').textContent();
    expect(shown).toBe(`Probe last ran ${await page.evaluate((t) => new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }), after)}`);
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
