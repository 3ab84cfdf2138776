// The run view (an MCP App) in a host built on ext-apps' AppBridge, against a real `sandbar serve` with a
// real container runtime, in Debian's Chromium: the View loads in a sandboxed double iframe (a proxy on
// another origin, the View in its srcdoc child) under a CSP that forbids network. It shows the code and
// "running", output while the run goes, then stdout, stderr, the figure and the exit reason; an error in
// words; the host's theme, live; its size; a session's id; and an approval question whose Allow lets the
// held call through. No console errors, and no request beyond the host's and the proxy's own pages.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { RUN_VIEW_URI } from '../../shared/run-view.js';
import type { HistoryDetail } from '../../shared/history.js';
import { externalReferences } from '../fixtures/self-contained-html.js';
import { apiCall, ARTIFACTS, e2e, launchChromium, startServe, type Served } from './harness.js';
import { appsClient, startViewHost, type ViewHost } from './run-view-host.js';

const EFFECTS = path.resolve('test/fixtures/effects-mcp-server.mjs');

const FIGURE_RUN = [
  'import sys, time',
  'print("first line", flush=True)',
  'time.sleep(2.5)',
  'import matplotlib.pyplot as plt',
  'plt.plot([1, 3, 2, 5])',
  "plt.title('Sales')",
  'plt.show()',
  'print("done")',
  'print("warned about something", file=sys.stderr)',
  'sys.exit(3)',
].join('\n');

const call = (client: Client, args: Record<string, unknown>) => client.callTool({ name: 'run_python', arguments: args }, undefined, { timeout: 150_000 }) as Promise<CallToolResult>;

describe.skipIf(!e2e.available)('the run view in an MCP Apps host', () => {
  let served: Served;
  let browser: Browser;
  let client: Client;
  let host: ViewHost;

  beforeAll(async () => {
    const effects = path.join(mkdtempSync(path.join(tmpdir(), 'sandbar-e2e-view-')), 'effects.json');
    served = await startServe({ mcpServers: { effects: { command: process.execPath, args: [EFFECTS], env: { EFFECTS_FILE: effects } } } });
    browser = await launchChromium();
    client = await appsClient(served);
    host = await startViewHost(browser, client);
  });
  afterAll(async () => {
    await host?.close();
    await client?.close();
    await browser?.close();
    await served?.stop();
  });
  afterEach(() => {
    // Every test: nothing logged as an error, nothing blocked by a policy, nothing fetched but the two pages.
    expect(host.errors).toEqual([]);
    expect(host.requests.filter((url) => !host.origins.includes(new URL(url).origin))).toEqual([]);
  });

  const shot = (frameName: string) => host.page.screenshot({ path: path.join(ARTIFACTS, `run-view-${frameName}.png`) });
  const status = (frame: Frame) => frame.locator('.rv-status').textContent();

  it('is listed as an MCP App, served as one self-contained document declaring no domains, and run_python points at it', async () => {
    const { resources } = await client.listResources();
    expect(resources.find((r) => r.uri === RUN_VIEW_URI)).toMatchObject({ mimeType: 'text/html;profile=mcp-app' });
    const read = await client.readResource({ uri: RUN_VIEW_URI });
    const content = read.contents[0] as { mimeType: string; text: string; _meta?: { ui?: { csp?: Record<string, string[]> } } };
    expect(content.mimeType).toBe('text/html;profile=mcp-app');
    expect(externalReferences(content.text)).toEqual([]);
    expect(content._meta?.ui?.csp?.connectDomains).toEqual([]);
    expect(content._meta?.ui?.csp?.resourceDomains).toEqual([]);
    const { tools } = await client.listTools();
    expect((tools.find((t) => t.name === 'run_python')?._meta as { ui?: { resourceUri?: string } })?.ui?.resourceUri).toBe(RUN_VIEW_URI);
  });

  it('shows the code and "running", the output as it comes, then stdout, stderr, the figure and the exit reason', async () => {
    onTestFailed(() => void shot('run-failed'));
    const frame = await host.mount({ theme: 'light' });
    const args = { code: FIGURE_RUN };
    // The code as the model writes it, then whole.
    await host.sendPartialInput({ code: 'import sys, ti' });
    await expect.poll(() => frame.locator('.rv-code').textContent()).toBe('import sys, ti');
    await host.sendInput(args);
    await expect.poll(() => status(frame)).toBe('running');
    // Highlighted: highlight.js marked the keywords.
    expect(await frame.locator('.rv-code .hljs-keyword').first().textContent()).toBe('import');
    let answered = false;
    const running = call(client, args).finally(() => (answered = true));
    // Output while the run goes, through the app-only status tool the View polls via the bridge.
    await frame.locator('.rv-stdout', { hasText: 'first line' }).waitFor({ timeout: 90_000 });
    expect(answered).toBe(false);
    const result = await running;
    expect(result.isError).toBe(true);
    await host.sendResult(result);
    await expect.poll(() => status(frame)).toMatch(/^failed: the code exited with an error · \d/);
    expect(await frame.locator('.rv-status').getAttribute('data-kind')).toBe('error');
    expect(await frame.locator('.rv-stdout').textContent()).toBe('first line\ndone');
    expect(await frame.locator('.rv-stderr').textContent()).toBe('warned about something');
    const figure = frame.locator('.rv-figures img');
    await expect.poll(() => figure.count()).toBe(1);
    expect(await figure.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(await figure.getAttribute('alt')).toMatch(/^figure 1: 'Sales', \d+×\d+$/);
    expect(await figure.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    // The View reported its size, and it grew with the figure.
    const sizes = await host.sizes();
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes.at(-1)!.height).toBeGreaterThan(300);
    await shot('run');
  });

  it('shows an error result in words: a timeout, and arguments refused before running; a host that proxies no tools gets no polling', async () => {
    // A host that lets the View call nothing on the server: the code, "running", then the result.
    const frame = await host.mount({ theme: 'light', hostCapabilities: {} });
    const args = { code: 'import time\ntime.sleep(60)', timeout: 1 };
    const calls = host.calls.length;
    await host.sendInput(args);
    expect(await status(frame)).toBe('running');
    await host.sendResult(await call(client, args));
    await expect.poll(() => status(frame)).toMatch(/^timed out after 1s/);
    expect(await frame.locator('.rv-code').textContent()).toBe(args.code);
    expect(host.calls.slice(calls)).toEqual([]);

    const refused = await host.mount({ theme: 'light' });
    await host.sendInput({ timeout: 5 });
    const result = await call(client, { timeout: 5 });
    expect(result.isError).toBe(true);
    await host.sendResult(result);
    await expect.poll(() => refused.locator('.rv-error').textContent()).toMatch(/code/);
    expect(await refused.locator('.rv-status').getAttribute('data-kind')).toBe('error');
  });

  it('follows the host theme: light and dark differ, and a live change applies', async () => {
    const background = (frame: Frame) => frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const text = (frame: Frame) => frame.evaluate(() => getComputedStyle(document.body).color);
    const light = await host.mount({ theme: 'light' });
    const lightColors = [await background(light), await text(light)];
    const dark = await host.mount({ theme: 'dark' });
    await expect.poll(() => dark.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await host.sendInput({ code: 'print("dark")' });
    const darkColors = [await background(dark), await text(dark)];
    expect(darkColors[0]).not.toBe(lightColors[0]);
    expect(darkColors[1]).not.toBe(lightColors[1]);
    await shot('dark');
    await host.setTheme('light');
    await expect.poll(() => background(dark)).toBe(lightColors[0]);
  });

  it('a session call shows the session line, then its id', async () => {
    const frame = await host.mount({ theme: 'light' });
    const args = { code: 'x = 41\nprint(x + 1)', session: 'new' };
    await host.sendInput(args);
    expect(await frame.locator('.rv-session').textContent()).toBe('session: new');
    const result = await call(client, args);
    const id = /^session: (\S+)/.exec((result.content[0] as { text: string }).text)?.[1];
    expect(id).toBeTruthy();
    await host.sendResult(result);
    await expect.poll(() => frame.locator('.rv-session').textContent()).toBe(`session: ${id}`);
    expect(await frame.locator('.rv-stdout').textContent()).toBe('42');
  });

  it('opens an artifact link through the bridge (resources/read), not the network', async () => {
    const frame = await host.mount({ theme: 'light' });
    const args = { code: "open('/workspace/out/report.csv', 'w').write('region,sales\\nnorth,12\\n')\nprint('wrote')" };
    await host.sendInput(args);
    const result = await call(client, args);
    await host.sendResult(result);
    const link = frame.locator('.rv-link-button', { hasText: 'out/report.csv' });
    await link.waitFor();
    const requests = host.requests.length;
    await link.click();
    await expect.poll(() => frame.locator('.rv-link .rv-artifact-text').textContent()).toBe('region,sales\nnorth,12\n');
    expect(host.calls.at(-1)).toMatch(/^resources\/read sandbar:\/\/runs\/[^/]+\/artifacts\/out\/report\.csv$/);
    expect(host.requests.slice(requests)).toEqual([]);
  });

  it('runs under a policy that forbids network: a request from the View is refused', async () => {
    const frame = await host.mount({ theme: 'light' });
    const before = host.requests.length;
    const outcome = await frame.evaluate((url) => fetch(url).then(() => 'fetched', () => 'refused'), `${host.origins[0]}/`);
    expect(outcome).toBe('refused');
    // The refusal is reported as a policy violation, and nothing reached the network.
    expect(host.errors.length).toBeGreaterThan(0);
    expect(host.errors.every((e) => /Content Security Policy|connect-src/.test(e))).toBe(true);
    expect(host.requests.slice(before)).toEqual([]);
    host.errors.length = 0;
  });

  it("asks about a held tool call with Allow and Deny; Allow lets it through, recorded as the app's answer", async () => {
    onTestFailed(() => void shot('approval-failed'));
    const frame = await host.mount({ theme: 'light' });
    const args = { code: 'r = await mcp_effects.delete_item(name="from-view")\nprint(r["content"][0]["text"])', servers: ['effects'] };
    await host.sendInput(args);
    const running = call(client, args);
    const question = frame.locator('.rv-question');
    await question.waitFor({ timeout: 90_000 });
    expect(await question.locator('.rv-question-text').textContent()).toMatch(/^Code in run_python wants to call effects\/delete_item with \{"name":"from-view"\}, from line 1\b.*Allow it\?$/);
    const [waiting] = await apiCall<{ runId: string }[]>(served, 'approvals.list');
    await shot('approval');
    await question.getByRole('button', { name: 'Allow' }).click();
    const result = await running;
    expect((result.content[0] as { text: string }).text).toBe('deleted from-view (1)');
    await host.sendResult(result);
    await expect.poll(() => frame.locator('.rv-question').count()).toBe(0);
    const detail = await apiCall<HistoryDetail>(served, 'executions.get', { id: waiting!.runId });
    expect(detail.approvals.map((a) => [a.decision, a.by])).toEqual([['allow-once', 'app']]);

    // Deny: the code gets the refusal, and nothing is deleted.
    const again = await host.mount({ theme: 'light' });
    const denyArgs = { code: 'from mcp.runtime import ToolCallDenied\ntry:\n    await mcp_effects.delete_item(name="denied")\nexcept ToolCallDenied as e:\n    print("denied:", e)', servers: ['effects'] };
    await host.sendInput(denyArgs);
    const denied = call(client, denyArgs);
    await again.locator('.rv-question').getByRole('button', { name: 'Deny' }).click({ timeout: 90_000 });
    expect((((await denied).content[0]) as { text: string }).text).toMatch(/^denied: effects\/delete_item was denied/);
  });
});
