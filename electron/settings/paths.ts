// SANDBAR_HOME: one folder for settings, token and history, shared by every surface (app, stdio, serve, CLI).
import { homedir } from 'node:os';
import path from 'node:path';

export function sandbarHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  const explicit = env.SANDBAR_HOME?.trim();
  if (explicit) return path.resolve(explicit);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Sandbar');
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'Sandbar');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'sandbar');
}

export const SETTINGS_FILE = 'settings.json';
export const TOKEN_FILE = 'token';
/** Opens the control API and the panel; never written into an MCP client's config. */
export const PANEL_TOKEN_FILE = 'panel-token';

/** Package layers, verified wheels and resolutions, under SANDBAR_HOME. */
export const PACKAGES_DIR = 'packages';
