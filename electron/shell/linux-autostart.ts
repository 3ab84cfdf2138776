// Launch at login on Linux desktops: Electron has no login items there, so the XDG autostart convention
// is used instead, a `.desktop` file in `$XDG_CONFIG_HOME/autostart` that the session starts at login.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const AUTOSTART_FILE = 'sandbar.desktop';

export function autostartDir(env: NodeJS.ProcessEnv, home: string): string {
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(config, 'autostart');
}

/** Quotes an argument for a desktop entry's Exec key (the spec's double-quote rules). */
function execArg(arg: string): string {
  return /[\s"'\\$`<>|&;()*?#~]/.test(arg) ? `"${arg.replace(/(["`$\\])/g, '\\$1')}"` : arg;
}

export function autostartEntry(command: string, args: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Sandbar',
    'Comment=Run AI agents\' Python safely on this machine',
    `Exec=${[command, ...args].map(execArg).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Creates or removes the autostart entry; the write is atomic so a login never reads half a file. */
export function setLinuxAutostart(options: { enabled: boolean; env: NodeJS.ProcessEnv; home: string; command: string; args: readonly string[] }): string {
  const dir = autostartDir(options.env, options.home);
  const file = path.join(dir, AUTOSTART_FILE);
  if (!options.enabled) {
    rmSync(file, { force: true });
    return file;
  }
  mkdirSync(dir, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, autostartEntry(options.command, options.args), { mode: 0o644 });
  renameSync(temp, file);
  return file;
}
