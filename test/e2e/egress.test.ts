// Egress in the panel, in real Chromium. A run's connections in History's detail and in Live, shown by the
// panel served from source with the dev fake API (`?fake`: egress records with escape and bidi characters,
// a running run that reports connections as decided and as ended), since only the fake can produce them on
// demand; and Limits › Egress against a real `sandbar serve`: a rule's preview, the parser's reason for a
// bad one (nothing saved), a saved rule in settings.json, and Health's egress row.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViteDevServer } from 'vite';
import { apiCall, e2e, launchChromium, openPanel, pageErrors, screenshot, startServe, type Served } from './harness.js';

const HIDDEN = ['\u001b', '\u202e', '\u200b'];

describe.skipIf(!e2e.available)('panel: a run\'s connections (dev fake API)', () => {
  let vite: ViteDevServer;
  let browser: Browser;
  let page: Page;
  let base: string;
  const errors: string[] = [];

  beforeAll(async () => {
    const { createServer } = await import('vite');
    vite = await createServer({ configFile: path.resolve('renderer/vite.config.ts'), logLevel: 'error', server: { host: '127.0.0.1', port: 0, hmr: false } });
    await vite.listen();
    base = `${vite.resolvedUrls!.local[0]!}?fake`;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    page.on('pageerror', (e) => errors.push(e.message));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await vite?.close();
  });

  it('History\'s detail lists the run\'s connections, sanitised, with what went unrecorded', async () => {
    await page.goto(`${base}#/history/f-04`);
    const pane = page.getByRole('complementary', { name: /Run f-04/ });
    const list = pane.getByRole('list', { name: 'Connections the run made' });
    await list.waitFor({ timeout: 30_000 });
    expect(await pane.getByRole('heading', { name: /^Connections/ }).textContent()).toBe('Connections (7 connections · 2 denied)');
    const rows = await list.getByRole('listitem').allInnerTexts();
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/api\.example\.com:443\s*allowed\s*GET \/v1\/items → 200\s*secret API_KEY/);
    expect(rows[2]).toMatch(/evil\.example\.net:80\s*denied\s*not allowed\s*POST \/collect\s/);
    for (const hidden of HIDDEN) expect(rows.join('\n')).not.toContain(hidden);
    expect(await pane.innerText()).toContain('3 more connections not recorded: a run keeps its first 500.');
    await screenshot(page, 'egress-history');
  });

  it('Live shows a running run\'s connections as they are reported, and the latest finished run\'s', async () => {
    await page.goto(`${base}#/live`);
    const running = page.getByRole('region', { name: /^Connections of run / }).first();
    // The fake reports a connection as decided, a refusal, then the first one ending with its bytes.
    await expect.poll(() => running.innerText().catch(() => ''), { timeout: 20_000 }).toContain('912 B out · 20 KiB in');
    const rows = await running.getByRole('listitem').allInnerTexts();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/evil\.example\.net:443\s*denied\s*denied by a rule/);
    expect(await running.innerText()).toContain('2 connections · 1 denied');
    const finished = page.getByRole('list', { name: 'Connections of run f-04' });
    expect(await finished.getByRole('listitem').count()).toBe(4);
    await screenshot(page, 'egress-live');
    expect(errors).toEqual([]);
  });
});

describe.skipIf(!e2e.available)('panel: Limits › Egress', () => {
  let served: Served;
  let browser: Browser;
  let page: Page;
  const file = () => readFileSync(path.join(served.home, 'settings.json'), 'utf8');

  beforeAll(async () => {
    served = await startServe({ secrets: { API_KEY: { value: 'sk-e2e-secret-value-0123', hosts: ['api.example.test'] } } });
    browser = await launchChromium();
    page = await openPanel(browser, served);
    await page.goto(`${served.baseUrl}/#/limits`);
    await page.getByRole('button', { name: 'Add allowed host' }).waitFor({ timeout: 30_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('previews a rule, refuses a URL in the parser\'s words without saving, and saves a fixed rule', async () => {
    const before = file();
    await page.getByRole('button', { name: 'Add allowed host' }).click();
    const rule = page.getByRole('textbox', { name: 'Allowed host 1' });
    await rule.fill('*.example.test:8443');
    await expect.poll(() => page.getByText('Matches any name ending in .example.test (not example.test itself), port 8443').isVisible()).toBe(true);
    await rule.fill('https://api.example.test/v1');
    const error = page.getByText('"https://api.example.test/v1" must be a host, host:port, *.domain[:port], an IP address or a CIDR, not a URL');
    await expect.poll(() => error.isVisible()).toBe(true);
    expect(await rule.getAttribute('aria-invalid')).toBe('true');
    const save = page.getByRole('button', { name: 'Save egress rules' });
    expect(await save.isDisabled()).toBe(true);
    await screenshot(page, 'egress-limits-invalid');
    expect(file()).toBe(before);

    await rule.fill('api.example.test:443');
    await expect.poll(() => page.getByText('Matches api.example.test only (not its subdomains), port 443').isVisible()).toBe(true);
    // Secrets show by name, never by value; nothing on the card edits them.
    const card = page.getByRole('region', { name: 'Egress' });
    expect(await card.getByRole('list', { name: 'Secrets' }).innerText()).toContain('API_KEY');
    expect(await page.content()).not.toContain('sk-e2e-secret-value-0123');
    await save.click();
    await expect.poll(() => JSON.parse(file()).egress?.allow, { timeout: 10_000 }).toEqual(['api.example.test:443']);
    expect(JSON.parse(file()).secrets.API_KEY.value).toBe('sk-e2e-secret-value-0123');
    await screenshot(page, 'egress-limits-saved');
    // Health names egress as soon as a host is allowed (on this backend: on, or saved but not carried).
    await expect
      .poll(async () => (await apiCall<{ checks: { id: string; status: string; detail: string }[] }>(served, 'health.get')).checks.find((c) => c.id === 'egress'), { timeout: 20_000 })
      .toMatchObject({ status: 'warn', detail: expect.stringMatching(/1 allow rule/) });
    expect(pageErrors(page)).toEqual([]);
  });
});
