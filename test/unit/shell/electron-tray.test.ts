// electron/tray.ts draws what the model says: an icon per state, the tooltip, and a menu whose clicks
// come back as actions. Electron's Tray, Menu and nativeImage are fakes here.
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { TrayMenuItem } from '../../../electron/shell/tray-model.js';

const fakes = vi.hoisted(() => {
  class Tray {
    static last: Tray | null = null;
    readonly events = new Map<string, () => void>();
    image: unknown;
    tooltip = '';
    menu: { label?: string; type?: string; enabled?: boolean; click?: () => void }[] = [];
    destroyed = false;
    constructor(image: unknown) {
      this.image = image;
      Tray.last = this;
    }
    on(event: string, fn: () => void) {
      this.events.set(event, fn);
    }
    setImage(image: unknown) {
      this.image = image;
    }
    setToolTip(text: string) {
      this.tooltip = text;
    }
    setContextMenu(menu: never) {
      this.menu = menu;
    }
    isDestroyed() {
      return this.destroyed;
    }
    destroy() {
      this.destroyed = true;
    }
  }
  return {
    Tray,
    Menu: { buildFromTemplate: (template: unknown) => template },
    nativeImage: { createFromPath: (file: string) => ({ file }) },
  };
});
vi.mock('electron', () => fakes);

const { ElectronTray, trayIconFile } = await import('../../../electron/tray.js');

describe('ElectronTray', () => {
  it('loads one icon per state and switches with the state', () => {
    const tray = new ElectronTray({ iconDir: '/icons', onAction: () => {} });
    const fake = fakes.Tray.last!;
    expect(fake.image).toEqual({ file: path.join('/icons', 'tray-ready.png') });
    tray.setState('broken', 'Sandbar: Not ready');
    expect(fake.image).toEqual({ file: path.join('/icons', 'tray-broken.png') });
    expect(fake.tooltip).toBe('Sandbar: Not ready');
    expect(trayIconFile('/icons', 'busy')).toBe(path.join('/icons', 'tray-busy.png'));
  });

  it('builds the menu: actions clickable, info lines disabled, separators kept', () => {
    const actions: string[] = [];
    const tray = new ElectronTray({ iconDir: '/icons', onAction: (a) => actions.push(a) });
    const items: TrayMenuItem[] = [
      { type: 'action', action: 'open', label: 'Open Sandbar', enabled: true },
      { type: 'separator' },
      { type: 'info', label: '1 running, 0 queued' },
      { type: 'action', action: 'copyEndpoint', label: 'Copy endpoint URL', enabled: false },
      { type: 'action', action: 'quit', label: 'Quit Sandbar', enabled: true },
    ];
    tray.setMenu(items);
    const menu = fakes.Tray.last!.menu;
    expect(menu.map((m) => [m.type ?? 'normal', m.label, m.enabled])).toEqual([
      ['normal', 'Open Sandbar', true],
      ['separator', undefined, undefined],
      ['normal', '1 running, 0 queued', false],
      ['normal', 'Copy endpoint URL', false],
      ['normal', 'Quit Sandbar', true],
    ]);
    expect(menu[2]?.click).toBeUndefined();
    menu[0]?.click?.();
    menu[4]?.click?.();
    expect(actions).toEqual(['open', 'quit']);
  });

  it('ignores updates after destroy', () => {
    const tray = new ElectronTray({ iconDir: '/icons', onAction: () => {} });
    tray.destroy();
    tray.setState('busy', 'x');
    expect(fakes.Tray.last!.tooltip).toBe('Sandbar');
  });

  it('opens the panel on click outside macOS', () => {
    const actions: string[] = [];
    new ElectronTray({ iconDir: '/icons', onAction: (a) => actions.push(a) });
    const click = fakes.Tray.last!.events.get('click');
    if (process.platform === 'darwin') expect(click).toBeUndefined();
    else {
      click?.();
      expect(actions).toEqual(['open']);
    }
  });
});

