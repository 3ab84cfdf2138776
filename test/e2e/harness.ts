// What every end-to-end test needs: a real `sandbar serve` with the test image, the panel open in
// Chromium, an MCP client, and screenshots under test/e2e/artifacts/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { inject } from 'vitest';
import { startServe as startServeProcess, type Served } from './serve-process.js';

export { apiCall, launchChromium, mcpClient, type Served } from './serve-process.js';
export const e2e = inject('e2e');
export const sandbox = inject('sandbox');
export const ARTIFACTS = path.resolve('test/e2e/artifacts');

export function startServe(settings: Record<string, unknown> = {}): Promise<Served> {
  return startServeProcess({ image: sandbox.image, settings });
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
