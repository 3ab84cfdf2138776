// What every end-to-end test needs: a real `sandbar serve` with the test image, the panel open in
// Chromium, an MCP client, and screenshots under test/e2e/artifacts/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchChromium, mcpClient, startServe as startServeProcess, type Served } from './serve-process.js';

export { apiCall, launchChromium, mcpClient, type Served } from './serve-process.js';
export const e2e = inject('e2e');
export const sandbox = inject('sandbox');
export const ARTIFACTS = path.resolve('test/e2e/artifacts');

export function startServe(settings: Record<string, unknown> = {}): Promise<Served> {
  return startServeProcess({ image: sandbox.image, settings });
}

export interface PanelAndAgent {
  served: Served;
  browser: Browser;
  page: Page;
  client: Client;
}

/**
 * For one describe block: a served Sandbar (with these settings), its panel open in Chromium and an MCP
 * client ('e2e-agent') connected, started before the block's tests and stopped after them. The fields are
 * set once the block starts.
 */
export function panelAndAgent(settings: Record<string, unknown> = {}): PanelAndAgent {
  const env = {} as PanelAndAgent;
  beforeAll(async () => {
    env.served = await startServe(settings);
    env.browser = await launchChromium();
    env.page = await openPanel(env.browser, env.served);
    env.client = await mcpClient(env.served, 'e2e-agent');
  });
  afterAll(async () => {
    await env.client?.close();
    await env.browser?.close();
    await env.served?.stop();
  });
  return env;
}

export async function openPanel(browser: Browser, served: Served, options: { colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 }, colorScheme: options.colorScheme ?? 'light' });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  uncaught.set(page, errors);
  await page.goto(served.panelUrl);
  return page;
}

const uncaught = new WeakMap<Page, string[]>();

/** Uncaught errors in the panel since it was opened: every test expects none. */
export function pageErrors(page: Page): string[] {
  return uncaught.get(page) ?? [];
}


export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}


/** The text of a run_python result (compact mode: one JSON text block). */
export function resultText(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('');
}
