// Launch at login on Linux (shell/linux-autostart.ts): the XDG autostart entry, its place and its quoting.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { autostartDir, autostartEntry, setLinuxAutostart } from '../../../electron/shell/linux-autostart.js';

describe('Linux launch at login (XDG autostart)', () => {
  it('uses $XDG_CONFIG_HOME/autostart, or ~/.config/autostart when it is unset or relative', () => {
    expect(autostartDir({ XDG_CONFIG_HOME: '/x/cfg' }, '/home/u')).toBe('/x/cfg/autostart');
    expect(autostartDir({}, '/home/u')).toBe('/home/u/.config/autostart');
    expect(autostartDir({ XDG_CONFIG_HOME: 'relative' }, '/home/u')).toBe('/home/u/.config/autostart');
  });

  it('writes a desktop entry that starts Sandbar hidden, quoting paths with spaces, and removes it', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sandbar-autostart-'));
    const file = setLinuxAutostart({ enabled: true, env: {}, home, command: '/opt/My Apps/Sandbar/sandbar', args: ['--hidden'] });
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^\[Desktop Entry\]\nType=Application\nName=Sandbar\n/);
    expect(text).toContain('Exec="/opt/My Apps/Sandbar/sandbar" --hidden\n');
    expect(statSync(file).mode & 0o777).toBe(0o644);
    setLinuxAutostart({ enabled: false, env: {}, home, command: 'x', args: [] });
    expect(() => statSync(file)).toThrow();
    // Turning it off when it was never on is not an error.
    expect(() => setLinuxAutostart({ enabled: false, env: {}, home, command: 'x', args: [] })).not.toThrow();
  });

  it('escapes the characters the desktop-entry spec reserves inside quotes', () => {
    expect(autostartEntry('/a b/$x', ['say "hi"'])).toContain('Exec="/a b/\\$x" "say \\"hi\\""');
  });
});
