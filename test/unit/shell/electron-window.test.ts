// electron/window.ts: one window, shown after its first paint, hidden (not closed) on close unless
// quitting, attached to the IPC transport and re-attached on reload. BrowserWindow is a fake here.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const fakes = await vi.hoisted(async () => {
  // vi.hoisted runs before imports: EventEmitter comes from a dynamic import.
  const { EventEmitter: Emitter } = await import('node:events');
  class WebContents extends Emitter {
    reloads = 0;
    reload() {
      this.reloads++;
    }
  }
  class BrowserWindow extends Emitter {
    static created: BrowserWindow[] = [];
    readonly webContents = new WebContents();
    visible = false;
    minimized = false;
    focused = 0;
    loaded: string | null = null;
    destroyed = false;
    constructor(readonly options: unknown) {
      super();
      BrowserWindow.created.push(this);
    }
    loadURL(url: string) {
      this.loaded = url;
      return Promise.resolve();
    }
    show() {
      this.visible = true;
    }
    hide() {
      this.visible = false;
    }
    focus() {
      this.focused++;
    }
    isMinimized() {
      return this.minimized;
    }
    restore() {
      this.minimized = false;
    }
    isDestroyed() {
      return this.destroyed;
    }
    /** What Electron does on close: 'close' (preventable), then 'closed'. */
    close() {
      let prevented = false;
      this.emit('close', { preventDefault: () => (prevented = true) });
      if (prevented) return;
      this.destroyed = true;
      this.emit('closed');
    }
  }
  const protocol = { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() };
  return { BrowserWindow, protocol };
});
vi.mock('electron', () => fakes);

const { PanelWindow, registerAppScheme, servePanel } = await import('../../../electron/window.js');

function setup() {
  const attachments: { resets: number; closed: boolean }[] = [];
  const panel = new PanelWindow({
    preload: '/dist/electron/preload.cjs',
    attach: () => {
      const a = { resets: 0, closed: false };
      attachments.push(a);
      return { connectionId: 'c1', reset: () => a.resets++, close: () => (a.closed = true) };
    },
    warn: () => {},
  });
  return { panel, attachments };
}

beforeEach(() => {
  fakes.BrowserWindow.created.length = 0;
});

describe('PanelWindow', () => {
  it('creates one window from the locked-down options and loads the app URL', () => {
    const { panel } = setup();
    panel.show();
    panel.show();
    expect(fakes.BrowserWindow.created).toHaveLength(1);
    const win = fakes.BrowserWindow.created[0]!;
    expect(win.loaded).toBe('app://sandbar/index.html');
    expect(win.options).toMatchObject({ show: false, webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, preload: '/dist/electron/preload.cjs' } });
  });

  it('shows only after the first paint, then immediately', () => {
    const { panel } = setup();
    panel.show();
    const win = fakes.BrowserWindow.created[0]!;
    expect(win.visible).toBe(false);
    win.emit('ready-to-show');
    expect(win.visible).toBe(true);
    win.hide();
    win.minimized = true;
    panel.show();
    expect(win.visible).toBe(true);
    expect(win.minimized).toBe(false);
  });

  it('hides on close (the app keeps serving) and really closes when quitting', () => {
    const { panel, attachments } = setup();
    panel.show();
    const win = fakes.BrowserWindow.created[0]!;
    win.emit('ready-to-show');
    win.close();
    expect(win.destroyed).toBe(false);
    expect(win.visible).toBe(false);
    panel.setQuitting();
    win.close();
    expect(win.destroyed).toBe(true);
    expect(attachments[0]?.closed).toBe(true);
  });

  it('re-creates the window after it was closed', () => {
    const { panel } = setup();
    panel.show();
    panel.setQuitting();
    fakes.BrowserWindow.created[0]!.close();
    panel.show();
    expect(fakes.BrowserWindow.created).toHaveLength(2);
  });

  it('resets the event stream on a new main-frame document, not on in-page or subframe navigation', () => {
    const { panel, attachments } = setup();
    panel.show();
    const contents = fakes.BrowserWindow.created[0]!.webContents;
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false });
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true });
    contents.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false });
    expect(attachments[0]?.resets).toBe(1);
  });

  it('reloads a crashed renderer', () => {
    const { panel } = setup();
    panel.show();
    const contents = fakes.BrowserWindow.created[0]!.webContents;
    contents.emit('render-process-gone', {}, { reason: 'crashed' });
    contents.emit('render-process-gone', {}, { reason: 'clean-exit' });
    expect(contents.reloads).toBe(1);
  });
});

describe('app scheme', () => {
  it('registers app: as privileged and serves the panel directory on it', () => {
    registerAppScheme();
    expect(fakes.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);
    servePanel('/dist/renderer');
    expect(fakes.protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
  });
});

