// Where the MCP clients Sandbar can import from keep their server configs, per platform.
import path from 'node:path';

import { CLIENT_IDS, type ClientId } from '../../../shared/contract.js';

export { CLIENT_IDS, type ClientId };

export interface ClientConfigPath {
  client: ClientId;
  path: string;
}

/** The per-user application data folder Electron apps (Claude Desktop, VS Code) write to. */
function appDataDir(platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv): string {
  const p = platform === 'win32' ? path.win32 : path.posix;
  if (platform === 'win32') return env.APPDATA && p.isAbsolute(env.APPDATA) ? env.APPDATA : p.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return p.join(home, 'Library', 'Application Support');
  // XDG: a relative XDG_CONFIG_HOME is invalid and must be ignored.
  return env.XDG_CONFIG_HOME && p.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : p.join(home, '.config');
}

/** Every candidate file, in import order (a client may have more than one; missing files are normal). */
export function clientConfigPaths(platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv): ClientConfigPath[] {
  // Computed for the given platform, not the one running the tests, so Windows paths use `\`.
  const p = platform === 'win32' ? path.win32 : path.posix;
  const appData = appDataDir(platform, home, env);
  return [
    { client: 'claude-desktop', path: p.join(appData, 'Claude', 'claude_desktop_config.json') },
    { client: 'claude-code', path: p.join(home, '.claude.json') },
    { client: 'cursor', path: p.join(home, '.cursor', 'mcp.json') },
    // mcp.json is VS Code's current format (`servers`); settings.json's `mcp.servers` is the older one.
    { client: 'vscode', path: p.join(appData, 'Code', 'User', 'mcp.json') },
    { client: 'vscode', path: p.join(appData, 'Code', 'User', 'settings.json') },
    { client: 'windsurf', path: p.join(home, '.codeium', 'windsurf', 'mcp_config.json') },
  ];
}
