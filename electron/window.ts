// The one panel window: created on first show, served from app://sandbar/, hidden (not closed) when the
// user closes it so the app keeps serving from the tray, and really closed only when quitting.
import { BrowserWindow, protocol, type WebContents } from 'electron';
import type { WindowAttachment } from './control/ipc-transport.js';
import { createPanelHandler } from './shell/panel-protocol.js';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, PANEL_URL, panelWindowOptions } from './shell/window-options.js';

/** Must run before `app.whenReady()`: privileges can only be granted at startup. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);
}

/** Serves the built panel directory on the app scheme (default session), after ready. */
export function servePanel(panelDir: string): void {
  protocol.handle(APP_SCHEME, createPanelHandler({ panelDir }));
}

export class PanelWindow {
  private window: BrowserWindow | null = null;
  private quitting = false;
  /** Asked to show before the first paint: shown on 'ready-to-show' (no blank flash). */
  private showWhenReady = false;
  private painted = false;

  constructor(
    private readonly options: {
      preload: string;
      icon?: string;
      /** Connects the window to the router's events (the IPC transport). */
      attach: (contents: WebContents) => WindowAttachment;
      warn: (message: string) => void;
    },
  ) {}

  /** Creates the window if needed, then shows and focuses it (tray click, second instance, dock). */
  show(): void {
    const win = this.window ?? this.create();
    if (!this.painted) {
      this.showWhenReady = true;
      return;
    }
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  }

  /** From here on, closing the window closes it (before-quit). */
  setQuitting(): void {
    this.quitting = true;
  }

  private create(): BrowserWindow {
    const win = new BrowserWindow(panelWindowOptions({ preload: this.options.preload, ...(this.options.icon ? { icon: this.options.icon } : {}) }));
    this.window = win;
    this.painted = false;
    this.showWhenReady = false;
    win.once('ready-to-show', () => {
      this.painted = true;
      if (this.showWhenReady) this.show();
    });
    const contents = win.webContents;
    const attachment = this.options.attach(contents);
    // A reload or a new document starts a fresh event stream; the old page's subscriptions go with it.
    contents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) attachment.reset();
    });
    contents.on('render-process-gone', (_event, details) => {
      this.options.warn(`panel renderer gone (${details.reason})`);
      if (details.reason !== 'clean-exit' && !win.isDestroyed()) contents.reload();
    });
    win.on('close', (event) => {
      if (this.quitting) return;
      event.preventDefault();
      win.hide();
    });
    win.on('closed', () => {
      attachment.close();
      if (this.window === win) this.window = null;
    });
    win.loadURL(PANEL_URL).catch((err: unknown) => this.options.warn(`panel failed to load: ${err instanceof Error ? err.message : String(err)}`));
    return win;
  }
}
