// Egress in the panel with a real run: a `sandbar serve` whose settings allow one loopback upstream the test
// starts, a run that makes three allowed requests and one refused, and the panel in real Chromium showing the
// connections in Live while the run goes, in History's detail after it, and Health's egress row as weakened.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, e2e, launchChromium, mcpClient, openPanel, pageErrors, resultText, screenshot, startServe, type Served } from './harness.js';

describe.skipIf(!e2e.available)('panel: a real run\'s egress', () => {
  let upstream: Server;
  let port: number;
  let served: Served;
  let browser: Browser;
  let page: Page;
  let client: Client;

  beforeAll(async () => {
    upstream = createServer((req, res) => res.end(`hello ${req.url}`));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', () => resolve()));
    port = (upstream.address() as AddressInfo).port;
    served = await startServe({ egress: { allow: [`127.0.0.1:${port}`], deny: [] } });
    browser = await launchChromium();
    page = await openPanel(browser, served);
    client = await mcpClient(served);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await served?.stop();
    upstream?.close();
  });

  it('Live shows the connections while the run goes, History keeps them, Health says isolation is weakened', async () => {
    await page.goto(`${served.baseUrl}/#/live`);
    // The run waits at its end so Live can be read while it is still running.
    const code = [
      'import urllib.request, time',
      'for i in range(3):',
      `    print(urllib.request.urlopen("http://127.0.0.1:${port}/item-%d" % i, timeout=20).read())`,
      'try:',
      '    urllib.request.urlopen("http://blocked.example.test/x", timeout=20)',
      'except Exception as e:',
      '    print("refused", e)',
      'time.sleep(4)',
    ].join('\n');
    const call = client.callTool({ name: 'run_python', arguments: { code, timeout: 60 } }, undefined, { timeout: 90_000 });
    const region = page.getByRole('region', { name: /^Connections of run / }).first();
    await expect.poll(() => region.innerText().catch(() => ''), { timeout: 30_000 }).toContain('denied');
    const live = await region.innerText();
    expect(live).toContain(`127.0.0.1:${port}`);
    expect(live).toContain('blocked.example.test');
    await screenshot(page, 'egress-real-live');

    const text = resultText(await call);
    expect(text).toContain("b'hello /item-2'");
    expect(text).toMatch(/egress refused: blocked\.example\.test:80 \(not allowed/);

    const id = (await apiCall<{ recent: { id: string }[] }>(served, 'live.snapshot')).recent[0]!.id;
    await page.goto(`${served.baseUrl}/#/history/${id}`);
    const list = page.getByRole('list', { name: 'Connections the run made' });
    await list.waitFor({ timeout: 20_000 });
    expect(await list.getByRole('listitem').count()).toBe(4);
    const rows = await list.innerText();
    expect(rows).toContain('/item-0');
    expect(rows).toContain('denied');
    await screenshot(page, 'egress-real-history');

    const health = (await apiCall<{ checks: { id: string; status: string; detail: string }[] }>(served, 'health.get')).checks.find((c) => c.id === 'egress');
    expect(health?.status).toBe('warn');
    expect(pageErrors(page)).toEqual([]);
  }, 150_000);
});
