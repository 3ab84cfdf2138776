// Limits: an invalid value shows the shared schema's message and is not saved; a valid change is
// applied live, and the next run's memory limit reflects it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, e2e, launchChromium, mcpClient, openPanel, pageErrors, resultText, screenshot, startServe, type Served } from './harness.js';

const CGROUP_LIMIT =
  'import os\np = "/sys/fs/cgroup/memory/memory.limit_in_bytes"\nprint("limit", open(p if os.path.exists(p) else "/sys/fs/cgroup/memory.max").read().strip())';

describe.skipIf(!e2e.available)('panel: Limits', () => {
  let served: Served;
  let browser: Browser;
  let page: Page;
  let client: Client;
  const memory = () => page.getByLabel('Memory', { exact: true });
  const apply = () => page.getByRole('region', { name: 'Apply changes' }).getByRole('button', { name: 'Apply' });

  beforeAll(async () => {
    served = await startServe();
    browser = await launchChromium();
    page = await openPanel(browser, served);
    client = await mcpClient(served);
    await page.goto(`${served.baseUrl}/#/limits`);
    await memory().waitFor();
  });
  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await served?.stop();
  });

  it('an invalid memory value shows the message and nothing is saved', async () => {
    const file = path.join(served.home, 'settings.json');
    const before = readFileSync(file, 'utf8');
    await memory().fill('lots');
    await expect.poll(() => page.getByText('must be a size such as 512m or 1g').isVisible()).toBe(true);
    expect(await memory().getAttribute('aria-invalid')).toBe('true');
    expect(await apply().isDisabled()).toBe(true);
    await screenshot(page, 'limits-invalid');
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect((await apiCall<{ settings: { limits: { memory: string } } }>(served, 'settings.get')).settings.limits.memory).toBe('512m');
  });

  it('a valid change shows the container flags, applies without a restart, and the next run gets it', async () => {
    await memory().fill('300m');
    await expect.poll(() => page.getByText('--memory 300m').first().isVisible(), { timeout: 10_000 }).toBe(true);
    await apply().click();
    await expect.poll(async () => (await apiCall<{ settings: { limits: { memory: string } } }>(served, 'settings.get')).settings.limits.memory, { timeout: 10_000 }).toBe('300m');
    await expect.poll(() => page.getByText('No unsaved changes').isVisible()).toBe(true);
    await screenshot(page, 'limits-applied');
    expect(JSON.parse(readFileSync(path.join(served.home, 'settings.json'), 'utf8')).limits.memory).toBe('300m');
    const result = await client.callTool({ name: 'run_python', arguments: { code: CGROUP_LIMIT } });
    expect(resultText(result)).toContain(`limit ${300 * 1024 * 1024}`);
    expect(pageErrors(page)).toEqual([]);
  });
});
