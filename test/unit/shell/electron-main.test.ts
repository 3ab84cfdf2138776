// electron/main.ts composition, with Electron and the engine faked: one instance, userData under
// SANDBAR_HOME, IPC handlers, tray and window, launch at login, and a quit that disposes before exiting.
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { METHOD_NAMES } from '../../../shared/contract.js';
import { parseSmokeReport } from '../../../electron/shell/smoke-hook.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';
import { FakeRouter } from './fake-router.js';

const fakes = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events');
  class App extends EventEmitter {
    paths = new Map<string, string>();
    lock = true;
    quit = vi.fn(() => {
      const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
      this.emit('before-quit', event);
      return event;
    });
    exit = vi.fn();
    enableSandbox = vi.fn();
    isPackaged = false;
    getAppPath = () => '/app';
    setLoginItemSettings = vi.fn();
    getLoginItemSettings = () => ({ wasOpenedAtLogin: false });
    setPath(name: string, value: string) {
      this.paths.set(name, value);
    }
    requestSingleInstanceLock() {
      return this.lock;
    }
    whenReady() {
      return Promise.resolve();
    }
  }
  class WebContents extends EventEmitter {
    id = 1;
    send() {}
    reload() {}
  }
  class BrowserWindow extends EventEmitter {
    static created: BrowserWindow[] = [];
    webContents = new WebContents();
    constructor() {
      super();
      BrowserWindow.created.push(this);
    }
    loadURL() {
      return Promise.resolve();
    }
    show() {}
    focus() {}
    hide() {}
    isMinimized() {
      return false;
    }
    isDestroyed() {
      return false;
    }
  }
  class Tray {
    static created = 0;
    /** The last menu set on any tray (Menu.buildFromTemplate returns the template itself here). */
    static menu: { label?: string; click?: () => void }[] = [];
    constructor() {
      Tray.created++;
    }
    on() {}
    setImage() {}
    setToolTip() {}
    setContextMenu(menu: { label?: string; click?: () => void }[]) {
      Tray.menu = menu;
    }
    isDestroyed() {
      return false;
    }
    destroy() {}
  }
  const session = {
    defaultSession: {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      setDevicePermissionHandler: vi.fn(),
      webRequest: { onHeadersReceived: vi.fn() },
    },
  };
  return {
    state: { app: new App() },
    App,
    BrowserWindow,
    Tray,
    session,
    ipcMain: { handle: vi.fn(), removeHandler: vi.fn() },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    clipboard: { writeText: vi.fn() },
    shell: { openExternal: vi.fn(), openPath: vi.fn(async () => '') },
    dialog: { showMessageBox: vi.fn(async (_options: unknown) => ({ response: 0 })) },
    Menu: { buildFromTemplate: (t: unknown) => t },
    nativeImage: { createFromPath: (file: string) => ({ file }) },
    sandbar: { created: [] as unknown[], instance: null as null | { router: FakeRouter; start: ReturnType<typeof vi.fn>; dispose: ReturnType<typeof vi.fn> } },
  };
});

vi.mock('electron', () => ({
  get app() {
    return fakes.state.app;
  },
  BrowserWindow: fakes.BrowserWindow,
  Tray: fakes.Tray,
  Menu: fakes.Menu,
  nativeImage: fakes.nativeImage,
  session: fakes.session,
  ipcMain: fakes.ipcMain,
  protocol: fakes.protocol,
  clipboard: fakes.clipboard,
  shell: fakes.shell,
  dialog: fakes.dialog,
}));
const stdio = vi.hoisted(() => ({ runs: [] as { env: unknown; createCore: unknown }[] }));
vi.mock('../../../electron/cli/stdio-run.js', () => ({
  runStdio: async (options: { env: unknown; createCore: unknown }) => {
    stdio.runs.push(options);
  },
}));
vi.mock('../../../electron/settings/electron-settings-store.js', () => ({ openElectronStore: (home: string) => ({ store: { path: `${home}/settings.json`, store: {} } }) }));
vi.mock('../../../electron/sandbar-app.js', () => ({
  createSandbarApp: (options: unknown) => {
    fakes.sandbar.created.push(options);
    return fakes.sandbar.instance;
  },
}));

let home: string;
let signalListeners: { SIGINT: number; SIGTERM: number };
const platform = process.platform;

function freshSandbar(launchAtLogin = true) {
  const router = new FakeRouter({
    'live.snapshot': { ok: true, value: { running: [], queued: [], recent: [], pool: { size: 0, ready: 0, starting: 0, lastError: null, refilling: false }, paused: false, memoryLimitBytes: 1 } },
    'health.get': { ok: true, value: null },
    'endpoint.info': { ok: true, value: { url: 'http://127.0.0.1:7337/mcp', port: 7337, listening: true, error: null, tokenFile: '/t', panelTokenFile: '/p', sessions: 0 } },
    'settings.get': { ok: true, value: { settings: { ...DEFAULT_SETTINGS, launchAtLogin }, defaults: DEFAULT_SETTINGS, locked: [], file: '/s' } },
  });
  fakes.sandbar.instance = { router, start: vi.fn(async () => {}), dispose: vi.fn(async () => {}) };
  return fakes.sandbar.instance;
}

async function loadMain(): Promise<void> {
  vi.resetModules();
  await import('../../../electron/main.js');
}

beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), 'sandbar-main-'));
  vi.stubEnv('SANDBAR_HOME', home);
  vi.stubEnv('SANDBAR_LOG_LEVEL', 'error');
  fakes.state.app = new fakes.App();
  fakes.BrowserWindow.created.length = 0;
  fakes.sandbar.created.length = 0;
  fakes.ipcMain.handle.mockClear();
  signalListeners = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') };
});

afterEach(() => {
  vi.unstubAllEnvs();
  Object.defineProperty(process, 'platform', { value: platform });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const added = process.listeners(signal).slice(signalListeners[signal]);
    for (const listener of added) process.removeListener(signal, listener);
  }
  rmSync(home, { recursive: true, force: true });
});

describe('electron/main.ts', () => {
  it('--stdio serves MCP over stdio (joining the running instance) with no window, tray or lock, then exits', async () => {
    const argv = process.argv;
    process.argv = [...argv, '--stdio'];
    stdio.runs.length = 0;
    try {
      freshSandbar();
      const lock = vi.spyOn(fakes.state.app, 'requestSingleInstanceLock');
      await loadMain();
      await vi.waitFor(() => expect(fakes.state.app.exit).toHaveBeenCalledWith(0));
      expect(stdio.runs).toHaveLength(1);
      expect(typeof stdio.runs[0]!.createCore).toBe('function');
      expect(lock).not.toHaveBeenCalled();
      expect(fakes.sandbar.created).toEqual([]);
      expect(fakes.BrowserWindow.created).toEqual([]);
      // A stdio child logs to its client's stderr only: the tray app's log file is not opened.
      expect(existsSync(path.join(home, 'logs', 'sandbar.log'))).toBe(false);
    } finally {
      process.argv = argv;
    }
  });

  it('tells client configuration to launch the app itself with --stdio (there is no separate Node)', async () => {
    freshSandbar();
    await loadMain();
    await vi.waitFor(() => expect(fakes.sandbar.created).toHaveLength(1));
    const { stdioCommand } = fakes.sandbar.created[0] as { stdioCommand: () => { command: string; args: string[] } };
    expect(stdioCommand()).toEqual({ command: process.execPath, args: ['/app', '--stdio'] });
    fakes.state.app.isPackaged = true;
    expect(stdioCommand()).toEqual({ command: process.execPath, args: ['--stdio'] });
  });

  it('opens the log file before its first line, and hands it to the app', async () => {
    vi.stubEnv('SANDBAR_LOG_LEVEL', 'warn');
    // Logged before the app is created: the smoke hook refused in a packaged app.
    vi.stubEnv('SANDBAR_SMOKE_REPORT', path.join(home, 'report.jsonl'));
    fakes.state.app.isPackaged = true;
    freshSandbar();
    await loadMain();
    await vi.waitFor(() => expect(fakes.sandbar.created).toHaveLength(1));
    const file = path.join(home, 'logs', 'sandbar.log');
    expect(readFileSync(file, 'utf8')).toMatch(/warn {2}\[desktop\] SANDBAR_SMOKE_REPORT is ignored in a packaged app\n/);
    expect((fakes.sandbar.created[0] as { appLog?: { path: string } }).appLog?.path).toBe(file);
  });

  it('"Open logs" in the tray opens the log file\'s folder', async () => {
    const sandbar = freshSandbar();
    Object.assign(sandbar, { logFile: path.join(home, 'logs', 'sandbar.log') });
    await loadMain();
    await vi.waitFor(() => expect(fakes.Tray.menu.some((i) => i.label === 'Open logs')).toBe(true));
    fakes.Tray.menu.find((i) => i.label === 'Open logs')!.click!();
    expect(fakes.shell.openPath).toHaveBeenCalledWith(path.join(home, 'logs'));
  });

  it('a second instance quits without starting anything', async () => {
    fakes.state.app.lock = false;
    freshSandbar();
    await loadMain();
    expect(fakes.state.app.quit).toHaveBeenCalled();
    expect(fakes.sandbar.created).toEqual([]);
  });

  it('beside a running `sandbar serve` for the same home, says so in a dialog naming it and leaves without an engine', async () => {
    // The parent (vitest's runner) stands in for the running serve: alive, and not this process.
    writeFileSync(path.join(home, 'instance.lock'), `${process.ppid}\n`);
    writeFileSync(path.join(home, 'instance.json'), JSON.stringify({ pid: process.ppid, url: 'http://127.0.0.1:7444/mcp', startedAt: 1, key: 'a'.repeat(64) }));
    fakes.dialog.showMessageBox.mockClear();
    freshSandbar();
    await loadMain();
    await vi.waitFor(() => expect(fakes.state.app.exit).toHaveBeenCalledWith(1));
    expect(fakes.dialog.showMessageBox).toHaveBeenCalledTimes(1);
    const shown = fakes.dialog.showMessageBox.mock.calls[0]![0] as { message: string; detail: string };
    expect(shown.message).toMatch(/already running/);
    expect(shown.detail).toBe(`Sandbar is already running for SANDBAR_HOME=${home}: pid ${process.ppid} at http://127.0.0.1:7444/mcp. Use that one, stop it first, or set SANDBAR_HOME to another folder.`);
    expect(fakes.sandbar.created).toEqual([]);
    expect(fakes.BrowserWindow.created).toEqual([]);
    // The running one's lock is left alone.
    expect(readFileSync(path.join(home, 'instance.lock'), 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('claims the home with its own pid when it starts (over a lock left by a process that is gone), and gives it back on quit', async () => {
    writeFileSync(path.join(home, 'instance.lock'), '2147483646\n');
    freshSandbar();
    await loadMain();
    await vi.waitFor(() => expect(fakes.BrowserWindow.created).toHaveLength(1));
    expect(readFileSync(path.join(home, 'instance.lock'), 'utf8')).toBe(`${process.pid}\n`);
    fakes.state.app.quit();
    await vi.waitFor(() => expect(fakes.state.app.exit).toHaveBeenCalledWith(0));
    expect(existsSync(path.join(home, 'instance.lock'))).toBe(false);
  });

  it('puts Chromium\'s profile under SANDBAR_HOME and sandboxes every renderer', async () => {
    fakes.state.app.lock = false;
    await loadMain();
    expect(fakes.state.app.paths.get('userData')).toBe(path.join(home, 'electron'));
    expect(fakes.state.app.enableSandbox).toHaveBeenCalled();
    expect(fakes.protocol.registerSchemesAsPrivileged).toHaveBeenCalled();
  });

  it('starts the app, registers every IPC method, shows the tray and the window', async () => {
    const sandbar = freshSandbar();
    await loadMain();
    await vi.waitFor(() => expect(fakes.BrowserWindow.created).toHaveLength(1));
    expect(sandbar.start).toHaveBeenCalledTimes(1);
    expect(fakes.sandbar.created[0]).toMatchObject({ env: process.env, panelDir: expect.any(String), settingsStore: { store: { path: `${home}/settings.json` } } });
    expect(fakes.ipcMain.handle).toHaveBeenCalledTimes(METHOD_NAMES.length);
    expect(fakes.Tray.created).toBeGreaterThan(0);
    expect(fakes.state.app.listenerCount('window-all-closed')).toBe(1);
  });

  it('before-quit waits for dispose (no container left) and then exits, once', async () => {
    const sandbar = freshSandbar();
    let finish: () => void = () => {};
    sandbar.dispose.mockImplementation(() => new Promise<void>((resolve) => (finish = resolve)));
    await loadMain();
    await vi.waitFor(() => expect(fakes.BrowserWindow.created).toHaveLength(1));

    const first = fakes.state.app.quit();
    expect(first.defaultPrevented).toBe(true);
    expect(sandbar.dispose).toHaveBeenCalledWith(10_000);
    expect(fakes.state.app.exit).not.toHaveBeenCalled();
    fakes.state.app.quit();
    expect(sandbar.dispose).toHaveBeenCalledTimes(1);

    finish();
    await vi.waitFor(() => expect(fakes.state.app.exit).toHaveBeenCalledWith(0));
    expect(fakes.ipcMain.removeHandler).toHaveBeenCalled();
  });

  it('exits even when dispose fails', async () => {
    const sandbar = freshSandbar();
    sandbar.dispose.mockRejectedValue(new Error('podman hung'));
    await loadMain();
    await vi.waitFor(() => expect(fakes.BrowserWindow.created).toHaveLength(1));
    fakes.state.app.quit();
    await vi.waitFor(() => expect(fakes.state.app.exit).toHaveBeenCalledWith(0));
  });

  it('applies launch at login from settings where the OS supports login items', async () => {
    Object.defineProperty(process, 'platform', { value: 'win32' });
    const sandbar = freshSandbar(true);
    await loadMain();
    await vi.waitFor(() => expect(fakes.state.app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true, args: ['--hidden'] }));
    sandbar.router.emit('settings.changed', { settings: { ...DEFAULT_SETTINGS, launchAtLogin: false }, changed: ['launchAtLogin'] });
    expect(fakes.state.app.setLoginItemSettings).toHaveBeenLastCalledWith({ openAtLogin: false, args: ['--hidden'] });
  });

  it('on Linux, follows launch at login with an XDG autostart entry (Electron has no login items there)', async () => {
    Object.defineProperty(process, 'platform', { value: 'linux' });
    const config = path.join(home, 'xdg');
    vi.stubEnv('XDG_CONFIG_HOME', config);
    const entry = path.join(config, 'autostart', 'sandbar.desktop');
    const sandbar = freshSandbar(true);
    await loadMain();
    await vi.waitFor(() => expect(existsSync(entry)).toBe(true));
    expect(readFileSync(entry, 'utf8')).toContain(`Exec=${process.execPath} /app --hidden`);
    expect(fakes.state.app.setLoginItemSettings).not.toHaveBeenCalled();
    sandbar.router.emit('settings.changed', { settings: { ...DEFAULT_SETTINGS, launchAtLogin: false }, changed: ['launchAtLogin'] });
    expect(existsSync(entry)).toBe(false);
  });

  describe('the smoke-test hook (SANDBAR_SMOKE_REPORT)', () => {
    function smokeSandbar() {
      const sandbar = freshSandbar(false);
      Object.assign(sandbar, { core: { history: { health: () => ({ driver: 'node:sqlite' }) } }, endpoint: { listening: true, url: 'http://127.0.0.1:4321/mcp' } });
      return sandbar;
    }
    const events = (file: string) => (existsSync(file) ? parseSmokeReport(readFileSync(file, 'utf8')).map((e) => e.event) : []);

    it('reports boot, console messages from the first page on, hand-overs and the quit clean-up', async () => {
      const file = path.join(home, 'report.jsonl');
      vi.stubEnv('SANDBAR_SMOKE_REPORT', file);
      smokeSandbar();
      await loadMain();
      await vi.waitFor(() => expect(events(file)).toContain('booted'));
      const booted = parseSmokeReport(readFileSync(file, 'utf8')).find((e) => e.event === 'booted');
      expect(booted).toMatchObject({ pid: process.pid, historyDriver: 'node:sqlite', endpoint: 'http://127.0.0.1:4321/mcp' });

      const contents = Object.assign(new EventEmitter(), { setWindowOpenHandler: vi.fn() });
      fakes.state.app.emit('web-contents-created', {}, contents);
      contents.emit('console-message', { level: 'error', message: 'boom', sourceId: 'app://sandbar/assets/x.js', lineNumber: 3 });
      fakes.state.app.emit('second-instance');
      fakes.state.app.quit();
      await vi.waitFor(() => expect(fakes.state.app.exit).toHaveBeenCalledWith(0));
      const report = parseSmokeReport(readFileSync(file, 'utf8'));
      expect(report.find((e) => e.event === 'console')).toMatchObject({ level: 'error', message: 'boom', source: 'app://sandbar/assets/x.js', line: 3 });
      expect(report.map((e) => e.event)).toEqual(['booted', 'console', 'second-instance', 'quitting', 'disposed']);
      expect(report.at(-1)).toMatchObject({ event: 'disposed', error: null });
    });

    it('a second instance reports that it leaves for the lock holder', async () => {
      const file = path.join(home, 'report.jsonl');
      vi.stubEnv('SANDBAR_SMOKE_REPORT', file);
      fakes.state.app.lock = false;
      await loadMain();
      expect(parseSmokeReport(readFileSync(file, 'utf8'))).toMatchObject([{ event: 'second-instance-exit', pid: process.pid }]);
    });

    it('is ignored in a packaged app, and adds no listener when unset', async () => {
      const file = path.join(home, 'report.jsonl');
      vi.stubEnv('SANDBAR_SMOKE_REPORT', file);
      fakes.state.app.isPackaged = true;
      smokeSandbar();
      await loadMain();
      await vi.waitFor(() => expect(fakes.BrowserWindow.created).toHaveLength(1));
      fakes.state.app.emit('second-instance');
      expect(existsSync(file)).toBe(false);
      // The security guards' listener only: nothing listens to page consoles.
      expect(fakes.state.app.listenerCount('web-contents-created')).toBe(1);
    });

    it('without the variable, the app registers only its own web-contents listener', async () => {
      smokeSandbar();
      await loadMain();
      await vi.waitFor(() => expect(fakes.BrowserWindow.created).toHaveLength(1));
      expect(fakes.state.app.listenerCount('web-contents-created')).toBe(1);
    });
  });
});
