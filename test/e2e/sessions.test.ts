// Sessions in the panel (issue 15): a session opened through run_python with `session: "new"` appears in
// Live with its calls; End ends it (the list empties and the next call with its id fails); History shows
// its calls under the session's label and lists them alone on request. With a step back (issue 28), Live
// lists the calls the session can return to, and History marks the call it discarded (in the row and, in
// words, in the detail pane).
import { describe, expect, it, onTestFailed } from 'vitest';
import { apiCall, e2e, pageErrors, panelAndAgent, resultText, screenshot } from './harness.js';

interface CallResult {
  isError?: boolean;
  content?: { text?: string }[];
  structuredContent?: { session?: { id?: string } };
}

/** The session id a call answered with: `structuredContent.session.id`, or the `session: <id>` first line. */
function sessionIdOf(result: CallResult): string {
  const id = result.structuredContent?.session?.id ?? /^session: ([0-9a-f]{32})$/m.exec(resultText(result))?.[1];
  if (!id) throw new Error(`no session id in: ${resultText(result).slice(0, 300)}`);
  return id;
}

describe.skipIf(!e2e.available)('panel: sessions', () => {
  const env = panelAndAgent();
  let id = '';
  const call = (code: string, session: string) => env.client.callTool({ name: 'run_python', arguments: { code, session } }, undefined, { timeout: 120_000 }) as Promise<CallResult>;

  it('a session opened by run_python appears in Live with its calls; End ends it and its id stops working', async () => {
    onTestFailed(async () => {
      await screenshot(env.page, 'sessions-failed');
    });
    await env.page.goto(`${env.served.baseUrl}/#/live`);
    const opened = await call('x = 41\nprint("opened")', 'new');
    expect(opened.isError ?? false).toBe(false);
    id = sessionIdOf(opened);
    const next = await call('x += 1\nprint(x)', id);
    expect(resultText(next)).toContain('42');
    const back = await call('print(x)', `${id}@1`);
    expect(resultText(back)).toContain('41');

    const row = env.page.getByRole('listitem', { name: `Session ${id.slice(0, 8)} from e2e-agent 1.0.0` });
    await row.waitFor({ timeout: 30_000 });
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('2 calls');
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toMatch(/ends if idle in \d+:\d\d/);
    expect(await row.textContent()).toContain('paused');
    expect(await row.textContent()).toContain('steps back to 1, 2');
    // Opened after the panel loaded: its memory arrives with the change events, not only with a full list.
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toMatch(/\d[\d.]* ?[KMG]i?B in use/);
    expect((await apiCall<{ id: string }[]>(env.served, 'sessions.list')).map((s) => s.id)).toEqual([id]);
    await screenshot(env.page, 'sessions-live');

    await row.getByRole('button', { name: `End session ${id.slice(0, 8)}` }).click();
    await row.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => env.page.getByRole('heading', { name: /^Sessions/ }).count(), { timeout: 10_000 }).toBe(0);
    expect(await apiCall<unknown[]>(env.served, 'sessions.list')).toEqual([]);

    const after = await call('print(x)', id);
    expect(after.isError).toBe(true);
    expect(resultText(after)).toMatch(/session/i);
    expect(resultText(after)).toMatch(/closed|ended|unknown|expired/i);
    expect(pageErrors(env.page)).toEqual([]);
  });

  it('History labels the session’s calls and lists them alone on request', async () => {
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await env.client.callTool({ name: 'run_python', arguments: { code: 'print("not in a session")' } });
    await env.page.goto(`${env.served.baseUrl}/#/history`);
    const grid = env.page.getByRole('grid', { name: 'Execution history' });
    const rows = grid.locator('[role="rowgroup"].hist-body [role="row"][data-id]');
    // Three session calls and one plain run (a fifth row if the refused call after End is recorded).
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
    const short = id.slice(0, 8);
    await expect.poll(() => grid.getByRole('button', { name: `session ${short} · call 2`, exact: true }).count(), { timeout: 10_000 }).toBe(1);
    // The first call 2 was discarded by the step back; the second says where it came from.
    const stepped = rows.filter({ has: env.page.getByRole('button', { name: `session ${short} · call 2 · from @1`, exact: true }) });
    expect(await stepped.count()).toBe(1);
    expect(await stepped.textContent()).not.toContain('discarded');
    const discarded = rows.filter({ has: env.page.getByRole('button', { name: `session ${short} · call 2`, exact: true }) });
    expect(await discarded.textContent()).toContain('discarded');
    // The detail pane says it in words: the discarded call, its checkpoint gone with it; the step back's origin;
    // the session has ended (End above), so no call of it keeps a checkpoint.
    const pane = env.page.getByRole('complementary', { name: /^Run / });
    await discarded.locator('.hist-c-time').click();
    await expect.poll(() => pane.textContent(), { timeout: 10_000 }).toContain('A later call stepped back to an earlier checkpoint: what this call did is gone');
    expect(await pane.locator('[data-checkpoint]').textContent()).toBe('Its checkpoint was discarded with it');
    await stepped.locator('.hist-c-time').click();
    await expect.poll(() => pane.textContent(), { timeout: 10_000 }).toContain('Stepped back: continued from the checkpoint of call 1, discarding the calls after it');
    expect(await pane.locator('[data-checkpoint]').textContent()).toBe('The session has ended: its checkpoints went with it');
    await screenshot(env.page, 'sessions-history-detail');
    await pane.getByRole('button', { name: 'Close details' }).click();
    await pane.waitFor({ state: 'detached', timeout: 10_000 });
    await grid.getByRole('button', { name: `session ${short} · call 1` }).click();
    // The third call (after End) failed before running: whether it is recorded is the engine's business;
    // the two calls that ran are listed, and the run outside the session is not.
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    const texts = await rows.allTextContents();
    expect(texts.every((t) => t.includes(`session ${short}`))).toBe(true);
    expect(texts.some((t) => t.includes('not in a session'))).toBe(false);
    await screenshot(env.page, 'sessions-history');
    await env.page.getByRole('button', { name: 'Show all runs' }).click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    expect(pageErrors(env.page)).toEqual([]);
  });
});
