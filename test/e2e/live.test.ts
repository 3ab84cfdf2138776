// Live: a run submitted by an MCP client appears in the panel, streams its output, and the Kill button
// ends it with no container left behind.
import { execFileSync } from 'node:child_process';
import { describe, expect, inject, it, onTestFailed } from 'vitest';
import { apiCall, e2e, pageErrors, panelAndAgent, resultText, screenshot } from './harness.js';

describe.skipIf(!e2e.available)('panel: Live', () => {
  const env = panelAndAgent();

  it('shows how to connect a env.client while nothing has run', async () => {
    await env.page.goto(`${env.served.baseUrl}/#/live`);
    await expect.poll(() => env.page.getByText(env.served.mcpUrl).first().isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(env.page, 'live-empty');
  });

  it('a run from an MCP env.client appears, streams its output, and Kill ends it with no container left', async () => {
    onTestFailed(async () => {
      await screenshot(env.page, 'live-failed');
    });
    const code = 'import time\nfor i in range(600):\n    print(f"tick {i}", flush=True)\n    time.sleep(0.1)';
    const call = env.client.callTool({ name: 'run_python', arguments: { code, timeout: 90 } }, undefined, { timeout: 120_000 });
    const card = env.page.getByRole('article', { name: /from e2e-agent/ });
    await card.waitFor({ timeout: 30_000 });
    // Output streams in while it runs: later lines keep arriving.
    await expect.poll(() => card.textContent(), { timeout: 20_000 }).toContain('tick 5');
    await expect.poll(() => card.textContent(), { timeout: 20_000 }).toContain('tick 15');
    await expect.poll(() => card.textContent(), { timeout: 10_000 }).toMatch(/\d+(\.\d+)? ?s \/ 90 s/);
    await screenshot(env.page, 'live-running');

    const id = (await apiCall<{ running: { id: string; containerName?: string }[] }>(env.served, 'live.snapshot')).running[0]!;
    expect(id.containerName).toMatch(/^sandbar-/);
    await card.getByRole('button', { name: /^Kill run/ }).click();
    expect(resultText(await call)).toMatch(/cancel/i);
    await card.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => env.page.getByRole('list', { name: /Recently finished/ }).textContent()).toMatch(/cancel/i);
    await screenshot(env.page, 'live-recent');
    await expect
      .poll(() => execFileSync(inject('sandbox').runtime!.path, ['ps', '--all', '--filter', `name=^${id.containerName}$`, '--format', '{{.Names}}'], { encoding: 'utf8' }).trim(), { timeout: 20_000 })
      .toBe('');
    expect(pageErrors(env.page)).toEqual([]);
  });
});
