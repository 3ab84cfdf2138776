// The real config locations of each client on each platform.
import { describe, expect, it } from 'vitest';
import { CLIENT_IDS, clientConfigPaths } from '../../../../electron/proxy/discovery/client-paths.js';

const table = (platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv = {}) =>
  clientConfigPaths(platform, home, env).map(({ client, path }) => `${client} ${path}`);

describe('clientConfigPaths', () => {
  it('uses ~/.config (or XDG_CONFIG_HOME) on Linux', () => {
    expect(table('linux', '/home/me')).toEqual([
      'claude-desktop /home/me/.config/Claude/claude_desktop_config.json',
      'claude-code /home/me/.claude.json',
      'cursor /home/me/.cursor/mcp.json',
      'vscode /home/me/.config/Code/User/mcp.json',
      'vscode /home/me/.config/Code/User/settings.json',
      'windsurf /home/me/.codeium/windsurf/mcp_config.json',
    ]);
    expect(table('linux', '/home/me', { XDG_CONFIG_HOME: '/xdg' })[0]).toBe('claude-desktop /xdg/Claude/claude_desktop_config.json');
    // A relative XDG_CONFIG_HOME is invalid by the XDG spec and ignored.
    expect(table('linux', '/home/me', { XDG_CONFIG_HOME: 'rel' })[3]).toBe('vscode /home/me/.config/Code/User/mcp.json');
  });

  it('uses Application Support on macOS', () => {
    expect(table('darwin', '/Users/me')).toEqual([
      'claude-desktop /Users/me/Library/Application Support/Claude/claude_desktop_config.json',
      'claude-code /Users/me/.claude.json',
      'cursor /Users/me/.cursor/mcp.json',
      'vscode /Users/me/Library/Application Support/Code/User/mcp.json',
      'vscode /Users/me/Library/Application Support/Code/User/settings.json',
      'windsurf /Users/me/.codeium/windsurf/mcp_config.json',
    ]);
  });

  it('uses %APPDATA% and backslashes on Windows', () => {
    expect(table('win32', 'C:\\Users\\me', { APPDATA: 'D:\\Roaming' })).toEqual([
      'claude-desktop D:\\Roaming\\Claude\\claude_desktop_config.json',
      'claude-code C:\\Users\\me\\.claude.json',
      'cursor C:\\Users\\me\\.cursor\\mcp.json',
      'vscode D:\\Roaming\\Code\\User\\mcp.json',
      'vscode D:\\Roaming\\Code\\User\\settings.json',
      'windsurf C:\\Users\\me\\.codeium\\windsurf\\mcp_config.json',
    ]);
    expect(table('win32', 'C:\\Users\\me')[0]).toBe('claude-desktop C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
  });

  it('covers every client id', () => {
    expect(new Set(clientConfigPaths('linux', '/h', {}).map((c) => c.client))).toEqual(new Set(CLIENT_IDS));
  });
});
