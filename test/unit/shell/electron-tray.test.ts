// electron/tray.ts draws what the model says: an icon per state, the tooltip, and a menu whose clicks
// come back as actions. Electron's Tray, Menu and nativeImage are fakes here.
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { TrayAction, TrayMenuItem } from '../../../electron/shell/tray-model.js';

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
  class Notification {
    static supported = true;
    static shown: Notification[] = [];
    readonly handlers = new Map<string, (...args: unknown[]) => void>();
    constructor(readonly options: { title: string; body: string; actions: { type: string; text: string }[] }) {}
    static isSupported() {
      return Notification.supported;
    }
    on(event: string, fn: (...args: unknown[]) => void) {
      this.handlers.set(event, fn);
    }
    show() {
      Notification.shown.push(this);
    }
  }
  return {
    Tray,
    Notification,
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
    const actions: TrayAction[] = [];
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

  it('draws a question as a submenu whose answers come back as decisions', () => {
    const actions: TrayAction[] = [];
    const tray = new ElectronTray({ iconDir: '/icons', onAction: (a) => actions.push(a) });
    tray.setMenu([
      {
        type: 'submenu',
        label: 'Approve? effects/delete_item',
        items: [
          { type: 'info', label: 'line 3: await x()' },
          { type: 'action', action: { decide: 'abcdefabcdef', decision: 'deny' }, label: 'Deny', enabled: true },
        ],
      },
    ]);
    const menu = fakes.Tray.last!.menu as unknown as { label: string; submenu: { label: string; enabled: boolean; click?: () => void }[] }[];
    expect(menu[0]!.label).toBe('Approve? effects/delete_item');
    expect(menu[0]!.submenu.map((m) => [m.label, m.enabled])).toEqual([['line 3: await x()', false], ['Deny', true]]);
    menu[0]!.submenu[1]!.click!();
    expect(actions).toEqual([{ decide: 'abcdefabcdef', decision: 'deny' }]);
  });

  it('shows a notification with the answers as buttons; a button answers, a click opens the panel', () => {
    const actions: TrayAction[] = [];
    const tray = new ElectronTray({ iconDir: '/icons', onAction: (a) => actions.push(a) });
    tray.notify({ id: 'q', title: 'T', body: 'B', choices: [{ label: 'Allow once', action: { decide: 'q', decision: 'allow-once' } }, { label: 'Deny', action: { decide: 'q', decision: 'deny' } }] });
    const shown = fakes.Notification.shown.at(-1)!;
    expect(shown.options).toEqual({ title: 'T', body: 'B', actions: [{ type: 'button', text: 'Allow once' }, { type: 'button', text: 'Deny' }] });
    shown.handlers.get('action')!({}, 1);
    shown.handlers.get('click')!();
    expect(actions).toEqual([{ decide: 'q', decision: 'deny' }, 'open']);
    fakes.Notification.supported = false;
    const count = fakes.Notification.shown.length;
    tray.notify({ id: 'r', title: 'T', body: 'B', choices: [] });
    expect(fakes.Notification.shown.length).toBe(count);
    fakes.Notification.supported = true;
  });

  it('opens the panel on click outside macOS', () => {
    const actions: TrayAction[] = [];
    new ElectronTray({ iconDir: '/icons', onAction: (a) => actions.push(a) });
    const click = fakes.Tray.last!.events.get('click');
    if (process.platform === 'darwin') expect(click).toBeUndefined();
    else {
      click?.();
      expect(actions).toEqual(['open']);
    }
  });
});

