// Servers: server-everything (a real third-party MCP server) appears and can be denied, after which a run
// naming it fails with a clear error. Clients: adding Sandbar to a fixture Claude Desktop config shows the
// diff first, then writes the entry (with a backup) and keeps the user's other servers.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchChromium, mcpClient, openPanel, pageErrors, resultText, screenshot, startServe, type Served } from './harness.js';

const CLAUDE_CONFIG = `{
  "mcpServers": {
    "notes": {
      "command": "notes-mcp",
      "args": ["--dir", "/home/me/notes"]
    }
  },
  "globalShortcut": "Ctrl+Space"
}
`;

describe.skipIf(!e2e.available)('panel: Servers and Clients', () => {
  let served: Served;
  let browser: Browser;
  let page: Page;
  let client: Client;

  beforeAll(async () => {
    served = await startServe();
    writeFileSync(path.join(served.userHome, '.config', 'Claude', 'claude_desktop_config.json'), CLAUDE_CONFIG);
    browser = await launchChromium();
    page = await openPanel(browser, served);
    client = await mcpClient(served);
  });
  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await served?.stop();
  });

  it('lists server-everything with its tools, and denying it makes a run that names it fail clearly', async () => {
    await page.goto(`${served.baseUrl}/#/servers`);
    await page.getByText('everything', { exact: true }).first().waitFor({ timeout: 15_000 });
    const allowed = await client.callTool({ name: 'run_python', arguments: { code: 'r = await mcp_everything.echo(message="hi")\nprint(r)', servers: ['everything'] } });
    expect(resultText(allowed)).toContain('hi');
    await page.getByRole('button', { name: 'Show the tools of everything' }).click();
    await expect.poll(() => page.getByRole('dialog').textContent(), { timeout: 15_000 }).toContain('echo');
    await screenshot(page, 'servers-tools');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Deny everything' }).click();
    await page.getByRole('button', { name: 'Allow everything' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'servers');
    const refused = await client.callTool({ name: 'run_python', arguments: { code: 'print(1)', servers: ['everything'] } });
    expect(resultText(refused)).toMatch(/MCP server 'everything' is denied in Sandbar/);
    expect(JSON.parse(readFileSync(path.join(served.home, 'settings.json'), 'utf8')).serverPolicies).toEqual({ everything: 'deny' });
    expect(pageErrors(page)).toEqual([]);
  });

  it('adds Sandbar to Claude Desktop: diff first, then the entry is written beside the user\'s own', async () => {
    const file = path.join(served.userHome, '.config', 'Claude', 'claude_desktop_config.json');
    await page.goto(`${served.baseUrl}/#/clients`);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Claude Desktop' }) });
    await card.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.textContent(), { timeout: 15_000 }).toContain('"sandbar"');
    // Before anything is written, the diff and one sentence say which command runs, with which home.
    expect(await dialog.textContent()).toContain(`"SANDBAR_HOME": "${served.home}"`);
    const summary = await dialog.getByTestId('change-summary').textContent();
    expect(summary).toMatch(/^Claude Desktop will start \//);
    expect(summary).toContain(`/dist/electron/cli.js stdio with SANDBAR_HOME=${served.home}, so it joins this Sandbar`);
    expect(readFileSync(file, 'utf8')).toBe(CLAUDE_CONFIG);
    await screenshot(page, 'clients-diff');
    await dialog.getByRole('button', { name: 'Write the change' }).click();
    await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: 15_000 }).toContain('Backup of the previous file');
    await screenshot(page, 'clients-written');
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.mcpServers.notes).toEqual({ command: 'notes-mcp', args: ['--dir', '/home/me/notes'] });
    expect(written.globalShortcut).toBe('Ctrl+Space');
    expect(written.mcpServers.sandbar.args.at(-1)).toBe('stdio');
    // An absolute command that exists here (never npx), and this instance's home.
    expect(path.isAbsolute(written.mcpServers.sandbar.command) && existsSync(written.mcpServers.sandbar.command)).toBe(true);
    expect(existsSync(written.mcpServers.sandbar.args[0])).toBe(true);
    expect(written.mcpServers.sandbar.env).toEqual({ SANDBAR_HOME: served.home });
    const backup = (await dialog.getByRole('status').locator('code').last().textContent())!;
    expect(existsSync(backup) && readFileSync(backup, 'utf8')).toBe(CLAUDE_CONFIG);
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect.poll(() => card.getByRole('button', { name: 'Remove' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(pageErrors(page)).toEqual([]);
  });
});
