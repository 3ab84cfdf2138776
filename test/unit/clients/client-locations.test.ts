// Where each client's file is on macOS, Windows and Linux, what "installed" means, and requests that make no sense.
import { diffText } from '../../../electron/clients/change-diff.js';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClientId } from '../../../electron/clients/client-configurator.js';
import { AppError } from '../../../shared/errors.js';
import { configurator, fixture, parseAs, put, tempHome, TOKEN } from './helpers.js';

describe('ClientConfigurator: locations', () => {
  it('writes Claude Desktop and VS Code under Application Support on macOS, and restores them', async () => {
    const home = tempHome();
    const mac = configurator(home, { platform: 'darwin' });
    const claude = put(home, 'Library/Application Support/Claude/claude_desktop_config.json', fixture('claude-desktop.json'));
    const code = put(home, 'Library/Application Support/Code/User/mcp.json', fixture('vscode-mcp.json'));
    const statuses = await mac.detect();
    expect(statuses.filter((s) => s.exists).map((s) => [s.id, s.file])).toEqual([
      ['claude-desktop', claude],
      ['vscode', code],
    ]);
    expect((await mac.apply('claude-desktop', 'add')).file).toBe(claude);
    expect((await mac.apply('vscode', 'add')).file).toBe(code);
    expect((await mac.detect()).filter((s) => s.configured === 'yes').map((s) => s.id)).toEqual(['claude-desktop', 'vscode']);
    await mac.apply('claude-desktop', 'remove');
    await mac.apply('vscode', 'remove');
    expect(readFileSync(claude)).toEqual(fixture('claude-desktop.json'));
    expect(readFileSync(code)).toEqual(fixture('vscode-mcp.json'));
  });

  it('follows XDG_CONFIG_HOME on Linux', async () => {
    const home = tempHome();
    const xdg = path.join(home, 'xdg');
    const result = await configurator(home, { env: { XDG_CONFIG_HOME: xdg } }).apply('vscode', 'add');
    expect(result.file).toBe(path.join(xdg, 'Code', 'User', 'mcp.json'));
    expect(Object.keys(parseAs(readFileSync(result.file, 'utf8'), true).servers as object)).toEqual(['sandbar']);
  });

  it('reports Windows paths under %APPDATA% and the profile folder, and previews without writing', async () => {
    const windows = configurator('C:\\Users\\me', { platform: 'win32', env: { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' } });
    const files = Object.fromEntries((await windows.detect()).map((s) => [s.id, s.file]));
    expect(files).toEqual({
      'claude-desktop': 'C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      'claude-code': 'C:\\Users\\me\\.claude.json',
      cursor: 'C:\\Users\\me\\.cursor\\mcp.json',
      vscode: 'C:\\Users\\me\\AppData\\Roaming\\Code\\User\\mcp.json',
      windsurf: 'C:\\Users\\me\\.codeium\\windsurf\\mcp_config.json',
    });
    const preview = await windows.preview('windsurf', 'add');
    expect(preview).toMatchObject({ file: files.windsurf, changed: true });
    expect(diffText(preview.diff)).toContain('+    "sandbar": {');
    expect(diffText(preview.diff)).toContain('"serverUrl": "http://127.0.0.1:7337/mcp"');
    expect(diffText(preview.diff)).not.toContain(TOKEN);
  });

  it('calls a client installed when its config folder exists, even without a config file', async () => {
    const home = tempHome();
    const installed = async () => (await configurator(home).detect()).filter((s) => s.installed).map((s) => s.id);
    expect(await installed()).toEqual([]);
    mkdirSync(path.join(home, '.cursor'));
    // ~/.claude.json sits in HOME itself, which always exists: Claude Code's own folder is the sign.
    mkdirSync(path.join(home, '.claude'));
    mkdirSync(path.join(home, '.config', 'Claude'), { recursive: true });
    expect(await installed()).toEqual(['claude-desktop', 'claude-code', 'cursor']);
    const statuses = await configurator(home).detect();
    expect(statuses.every((s) => !s.exists && s.configured === 'no' && s.error === null)).toBe(true);
    expect(statuses.map((s) => [s.id, s.label, s.transport])).toEqual([
      ['claude-desktop', 'Claude Desktop', 'stdio'],
      ['claude-code', 'Claude Code', 'http'],
      ['cursor', 'Cursor', 'http'],
      ['vscode', 'VS Code', 'http'],
      ['windsurf', 'Windsurf', 'http'],
    ]);
  });
});

describe('ClientConfigurator: Claude Code’s big file', () => {
  it('touches only the top-level entry, never a project’s own "sandbar"', async () => {
    const home = tempHome();
    const file = put(home, '.claude.json', fixture('claude-code.json'));
    const status = (await configurator(home).detect()).find((s) => s.id === 'claude-code');
    expect(status?.configured).toBe('no');
    await configurator(home).apply('claude-code', 'add');
    const after = parseAs(readFileSync(file, 'utf8'), false) as { projects: Record<string, { mcpServers: object }>; mcpServers: object };
    expect(after.projects['/home/alex/src/webapp']!.mcpServers).toEqual({ sandbar: { type: 'stdio', command: 'sandbar', args: ['stdio'] } });
    expect(Object.keys(after.mcpServers)).toEqual(['context7', 'playwright', 'sandbar']);
  });

  it('adds "mcpServers" when the file has none; removing leaves it empty', async () => {
    const home = tempHome();
    const original = '{\n  "numStartups": 3,\n  "projects": {},\n  "userID": "abc"\n}\n';
    const file = put(home, '.claude.json', original);
    await configurator(home).apply('claude-code', 'add');
    const added = readFileSync(file, 'utf8');
    expect(added.startsWith('{\n  "numStartups": 3,\n  "projects": {},\n  "userID": "abc",\n  "mcpServers": {\n    "sandbar": {\n')).toBe(true);
    await configurator(home).apply('claude-code', 'remove');
    expect(readFileSync(file, 'utf8')).toBe('{\n  "numStartups": 3,\n  "projects": {},\n  "userID": "abc",\n  "mcpServers": {}\n}\n');
  });
});

describe('ClientConfigurator: refusals', () => {
  it('rejects an unknown client or action', async () => {
    const c = configurator(tempHome());
    for (const call of [() => c.preview('zed' as ClientId, 'add'), () => c.apply('cursor', 'toggle' as 'add')]) {
      const err = await call().then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('invalid_request');
    }
  });

  it('refuses a server list that is not an object, and a top level that is not one', async () => {
    const home = tempHome();
    put(home, '.cursor/mcp.json', '{ "mcpServers": [] }\n');
    put(home, '.codeium/windsurf/mcp_config.json', '[]\n');
    for (const id of ['cursor', 'windsurf'] as const) {
      const err = await configurator(home).apply(id, 'add').then(() => null, (e: unknown) => e);
      expect((err as AppError).code).toBe('invalid_config');
    }
    expect(readFileSync(path.join(home, '.cursor/mcp.json'), 'utf8')).toBe('{ "mcpServers": [] }\n');
    const statuses = await configurator(home).detect();
    expect(statuses.find((s) => s.id === 'cursor')?.error).toMatch(/"mcpServers" is not an object/);
    expect(statuses.find((s) => s.id === 'windsurf')?.error).toMatch(/not hold a JSON object/);
  });
});
