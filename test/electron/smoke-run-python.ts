// The checks that need a container: an agent's run_python over the app's MCP endpoint, seen in the
// window's Live view and found in the history; and the history database read from outside after quit.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { readInstance } from '../../electron/instance-file.js';
import { TOKEN_FILE } from '../../electron/settings/paths.js';
import { screenshot, waitFor, type PageGlobals } from './smoke-support.js';

const CLIENT_NAME = 'sandbar-smoke';

/** An agent's run: MCP client → the app's endpoint → a container, seen in the window's Live view. */
export async function runThroughMcp(page: Page, home: string): Promise<{ problems: string[]; id: string | null }> {
  const instance = await waitFor('instance.json', () => readInstance(home), 30_000);
  const token = readFileSync(path.join(home, TOKEN_FILE), 'utf8').trim();
  await page.evaluate(() => {
    (globalThis as unknown as PageGlobals).location.hash = '#/live';
  });
  const client = new Client({ name: CLIENT_NAME, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(instance.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  const problems: string[] = [];
  try {
    const marker = `smoke-${Date.now().toString(36)}`;
    const code = `import time\nprint("${marker}", flush=True)\ntime.sleep(8)\nprint("done", flush=True)`;
    const call = client.callTool({ name: 'run_python', arguments: { code, timeout: 60 } }, undefined, { timeout: 120_000 });
    const card = page.getByRole('article', { name: new RegExp(`from ${CLIENT_NAME}`) });
    try {
      await card.waitFor({ timeout: 60_000 });
      await waitFor('the output in the Live card', async () => (((await card.textContent()) ?? '').includes(marker) ? true : null), 30_000);
      await screenshot(page, 'live');
    } catch (err) {
      problems.push(`the Live view did not show the running run: ${err instanceof Error ? err.message : String(err)}`);
    }
    const result = (await call) as { isError?: boolean; content?: { text?: string }[] };
    const text = (result.content ?? []).map((c) => c.text ?? '').join('');
    if (result.isError || !text.includes(marker) || !text.includes('done')) problems.push(`run_python answered: ${text.slice(0, 500)}`);
    // The history records from the engine's events; give the write a moment rather than race it.
    const id = await waitFor('the run in executions.list over IPC', async () => {
      const listed = await page.evaluate(async () => (globalThis as unknown as PageGlobals).sandbar.methods['executions.list']({ limit: 20 }));
      return listed.ok ? (listed.value.items.find((item) => item.codePreview.includes(marker))?.id ?? null) : null;
    }, 10_000).catch(() => null);
    if (!id) problems.push('the run is not in the history (executions.list over IPC)');
    return { problems, id };
  } finally {
    await client.close().catch(() => {});
  }
}

/** Read from outside with better-sqlite3 after the app quit: proves the file is a real, complete database. */
export function historyOnDisk(file: string, runId: string | null): string[] {
  if (!existsSync(file)) return [`${file} does not exist`];
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    if (!tables.some((t) => t.name === 'executions')) return [`no executions table (tables: ${tables.map((t) => t.name).join(', ')})`];
    if (runId && !db.prepare('SELECT id FROM executions WHERE id = ?').get(runId)) return [`the run ${runId} is not in ${file}`];
    return [];
  } finally {
    db.close();
  }
}
