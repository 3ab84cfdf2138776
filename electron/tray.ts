// The Electron tray: an icon per state (ready / busy / broken), a tooltip, the menu the tray model
// describes, and notifications for questions (approvals). It only draws; shell/tray-controller.ts decides what.
import path from 'node:path';
import { Menu, nativeImage, Notification, Tray, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import type { TrayNotification } from './shell/tray-approvals.js';
import type { TrayView } from './shell/tray-controller.js';
import type { TrayAction, TrayMenuItem, TrayState } from './shell/tray-model.js';

const STATES: readonly TrayState[] = ['ready', 'busy', 'broken'];

/** `tray-<state>.png` (16 px) with its `@2x` (32 px) beside it; Electron picks the scale itself. */
export function trayIconFile(iconDir: string, state: TrayState): string {
  return path.join(iconDir, `tray-${state}.png`);
}

export class ElectronTray implements TrayView {
  private readonly tray: Tray;
  private readonly icons: Record<TrayState, NativeImage>;

  constructor(private readonly options: { iconDir: string; onAction: (action: TrayAction) => void }) {
    this.icons = Object.fromEntries(STATES.map((s) => [s, nativeImage.createFromPath(trayIconFile(options.iconDir, s))])) as Record<TrayState, NativeImage>;
    this.tray = new Tray(this.icons.ready);
    this.tray.setToolTip('Sandbar');
    // macOS opens the menu on click; elsewhere a click opens the panel and the menu is on right-click.
    if (process.platform !== 'darwin') this.tray.on('click', () => options.onAction('open'));
  }

  setState(state: TrayState, tooltip: string): void {
    if (this.tray.isDestroyed()) return;
    this.tray.setImage(this.icons[state]);
    this.tray.setToolTip(tooltip);
  }

  setMenu(items: TrayMenuItem[]): void {
    if (this.tray.isDestroyed()) return;
    this.tray.setContextMenu(Menu.buildFromTemplate(items.map((item) => this.template(item))));
  }

  /** A desktop notification; its buttons (where the OS has them) answer, a click opens the panel. */
  notify(n: TrayNotification): void {
    if (!Notification.isSupported()) return;
    const shown = new Notification({ title: n.title, body: n.body, actions: n.choices.map((c) => ({ type: 'button' as const, text: c.label })) });
    shown.on('action', (_event, index) => {
      const choice = n.choices[index];
      if (choice) this.options.onAction(choice.action);
    });
    shown.on('click', () => this.options.onAction('open'));
    shown.show();
  }

  destroy(): void {
    if (!this.tray.isDestroyed()) this.tray.destroy();
  }

  private template(item: TrayMenuItem): MenuItemConstructorOptions {
    if (item.type === 'separator') return { type: 'separator' };
    if (item.type === 'info') return { label: item.label, enabled: false };
    if (item.type === 'submenu') return { label: item.label, submenu: item.items.map((i) => this.template(i)) };
    return { label: item.label, enabled: item.enabled, click: () => this.options.onAction(item.action) };
  }
}
