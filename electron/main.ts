// Electron entry: one instance, the app scheme, the engine (sandbar-app), IPC, window and tray; launch at
// login from settings; on quit, finish runs and remove every container before exiting. Composition only.
import './lean-heap.js';
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, clipboard, dialog, ipcMain, session, shell } from 'electron';
import { createCore } from './core.js';
import { runStdio } from './cli/stdio-run.js';
import { registerIpcTransport } from './control/ipc-transport.js';
import { alreadyRunningLine, claimHome } from './instance-lock.js';
import { AppLog } from './log-file.js';
import { createLogger } from './logger.js';
import { createSandbarApp } from './sandbar-app.js';
import { applySecurityGuards } from './security.js';
import { openElectronStore, type ElectronStoreConstructor } from './settings/electron-settings-store.js';
import { sandbarHome } from './settings/paths.js';
import { alreadyRunningDialog } from './shell/already-running-dialog.js';
import { CONFIRM_BUTTON, hostExecDialog } from './shell/host-exec-dialog.js';
import { setLinuxAutostart } from './shell/linux-autostart.js';
import { isTrustedSender } from './shell/sender-check.js';
import { smokeHookFrom, smokeReporter, type SmokeReport } from './shell/smoke-hook.js';
import { followLaunchAtLogin, TrayController } from './shell/tray-controller.js';
import { ElectronTray } from './tray.js';
import { PanelWindow, registerAppScheme, servePanel } from './window.js';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
// From dist/electron/main.js: the bundled preload beside it, the built panel, the icons at the repo root.
const PRELOAD = here('./preload.cjs');
const PANEL_DIR = here('../renderer/');
const ASSETS_DIR = here('../../electron/assets/');
/** Passed by the login item: start in the tray without opening the window. */
const HIDDEN_FLAG = '--hidden';
/** What client configuration writes for clients that only launch commands (there is no separate Node). */
const STDIO_FLAG = '--stdio';
const QUIT_GRACE_MS = 10_000;

const env = process.env;
// electron-store loads `electron` itself, so it is required here, in the edge, and only when opened.
const electronStore = () => (createRequire(import.meta.url)('electron-store') as { default: ElectronStoreConstructor }).default;
const log = createLogger('desktop', env);
// SANDBAR_HOME is the one folder every surface shares; Chromium's own profile goes in a subfolder of it
// (the single-instance lock lives there too, so one app runs per home).
const home = sandbarHome(env);
// The tray app's log file, open before its first line (a stdio child launched by a client logs to the
// client's stderr only: two processes rotating one file would lose lines).
const appLog = process.argv.includes(STDIO_FLAG) ? undefined : new AppLog(home);
app.setPath('userData', path.join(home, 'electron'));
registerAppScheme();
app.enableSandbox();
// Only `npm run test:electron` sets this, and only a checkout honours it (shell/smoke-hook.ts): it writes
// what the main process sees to a file in the test's home and changes nothing the app exposes.
const smoke = smokeHookFrom({ env, isPackaged: app.isPackaged, home, path });
if (!smoke.enabled && smoke.refused) log.warn(smoke.refused);
/** Gives SANDBAR_HOME back once the engine is disposed (a lock left by a crash is taken over anyway). */
let releaseHomeLock = () => {};
const report: SmokeReport = smoke.enabled ? smokeReporter((line) => appendFileSync(smoke.file, line)) : () => {};

if (process.argv.includes(STDIO_FLAG)) {
  // Started by an MCP client that only launches commands: no window, no tray, no lock. It joins the
  // running instance over HTTP, or runs its own engine when none is running.
  app.dock?.hide();
  runStdio({ createCore: (options) => createCore({ ...options, settingsStore: openElectronStore(home, electronStore) }), env })
    .catch((err: unknown) => log.error(`stdio failed: ${err instanceof Error ? err.message : String(err)}`))
    .finally(() => app.exit(0));
} else if (!app.requestSingleInstanceLock()) {
  // The running instance shows its window ('second-instance'); this one just leaves.
  report({ event: 'second-instance-exit', pid: process.pid });
  app.quit();
} else {
  // The Electron lock keeps out a second app; this one keeps out an app beside `sandbar serve` (and a
  // serve beside the app): one engine per home.
  const claim = claimHome(home);
  if (!claim.ok) {
    void refuseBesideRunning(alreadyRunningLine(home, claim.holder));
  } else {
    releaseHomeLock = claim.release;
    process.once('exit', claim.release);
    boot().catch((err: unknown) => {
      log.error(`startup failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      app.exit(1);
    });
  }
}

/** Another Sandbar serves this home: say so where a person sees it (a dialog, not only the log), then leave. */
async function refuseBesideRunning(line: string): Promise<void> {
  log.error(line);
  report({ event: 'home-in-use', line });
  await app.whenReady();
  // The smoke test has nobody to click the dialog; it reads the line from its report instead.
  if (!smoke.enabled) await dialog.showMessageBox(alreadyRunningDialog(line));
  app.exit(1);
}

async function boot(): Promise<void> {
  await app.whenReady();
  // A corrupt settings file is moved aside here and reported by health (the warning travels with the store).
  const sandbar = createSandbarApp({
    env,
    settingsStore: openElectronStore(home, electronStore),
    panelDir: PANEL_DIR,
    log,
    ...(appLog ? { appLog } : {}),
    // Packaged: the app binary itself; from a checkout (`electron .`): Electron plus the app folder.
    stdioCommand: () => ({ command: process.execPath, args: app.isPackaged ? [STDIO_FLAG] : [app.getAppPath(), STDIO_FLAG] }),
    // Only calls over IPC (this app's own window) can reach this; HTTP callers are refused before it.
    confirmHostExec: async (changes) => (await dialog.showMessageBox(hostExecDialog(changes))).response === CONFIRM_BUTTON,
    // The folder picker for Limits › Folders; saving the list still goes through the confirmation above.
    pickFolder: async () => {
      const picked = await dialog.showOpenDialog({ title: 'A folder for the sandbox', properties: ['openDirectory', 'dontAddToRecent'] });
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
  });

  applySecurityGuards(app, session.defaultSession, (message) => log.warn(message));
  // Every console message from the first one on, which a test attaching later could miss.
  if (smoke.enabled) {
    app.on('web-contents-created', (_event, contents) => {
      contents.on('console-message', (details) => report({ event: 'console', level: details.level, message: details.message, source: details.sourceId, line: details.lineNumber }));
    });
  }
  servePanel(PANEL_DIR);
  const transport = registerIpcTransport({
    ipcMain,
    router: sandbar.router,
    isTrusted: isTrustedSender,
    onRefused: (method, event) => log.warn(`refused IPC ${method} from ${event.senderFrame?.url ?? 'a closed frame'}`),
  });
  const panel = new PanelWindow({
    preload: PRELOAD,
    icon: path.join(ASSETS_DIR, 'icon.png'),
    attach: (contents) => transport.attachWindow(contents),
    warn: (message) => log.warn(message),
  });
  const tray = new ElectronTray({ iconDir: ASSETS_DIR, onAction: (action) => void controller.perform(action) });
  const controller = new TrayController({
    router: sandbar.router,
    view: tray,
    actions: {
      openPanel: () => panel.show(),
      copyText: (text) => clipboard.writeText(text),
      openLogs: () => void shell.openPath(path.dirname(sandbar.logFile)).then((problem) => problem && log.warn(`could not open the logs: ${problem}`)),
      quit: () => app.quit(),
    },
    log: (message) => log.warn(message),
  });

  app.on('second-instance', () => {
    report({ event: 'second-instance' });
    panel.show();
  });
  app.on('activate', () => panel.show());
  // A tray app: closing the window does not quit.
  app.on('window-all-closed', () => {});

  let settingsFeed: { close(): void } | null = null;
  let exiting = false;
  app.on('before-quit', (event) => {
    panel.setQuitting();
    if (exiting) return;
    exiting = true;
    event.preventDefault();
    report({ event: 'quitting' });
    void (async () => {
      controller.dispose();
      settingsFeed?.close();
      let failure: string | null = null;
      try {
        await sandbar.dispose(QUIT_GRACE_MS);
      } catch (err) {
        failure = err instanceof Error ? err.message : String(err);
        log.error(`shutdown: ${failure}`);
      }
      report({ event: 'disposed', error: failure });
      transport.dispose();
      tray.destroy();
      releaseHomeLock();
      app.exit(0);
    })();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  try {
    // Without the HTTP listener (port taken) the window still works over IPC; health says why.
    await sandbar.start({ requireListener: false });
  } catch (err) {
    // The tray and the Health view say what is wrong; the window stays reachable.
    log.error(`engine failed to start: ${err instanceof Error ? err.message : String(err)}`);
  }
  await controller.start();
  if (smoke.enabled) {
    report({ event: 'booted', pid: process.pid, historyDriver: sandbar.core.history.health().driver, endpoint: sandbar.endpoint.listening ? sandbar.endpoint.url : null });
  }
  // Login items exist on macOS and Windows; Linux desktops start XDG autostart entries instead.
  const launch = app.isPackaged ? { command: process.execPath, args: [HIDDEN_FLAG] } : { command: process.execPath, args: [app.getAppPath(), HIDDEN_FLAG] };
  settingsFeed = await followLaunchAtLogin(
    sandbar.router,
    (openAtLogin) =>
      process.platform === 'linux'
        ? void setLinuxAutostart({ enabled: openAtLogin, env, home: homedir(), ...launch })
        : app.setLoginItemSettings({ openAtLogin, args: [HIDDEN_FLAG] }),
    (message) => log.warn(message),
  );
  const hidden = process.argv.includes(HIDDEN_FLAG) || (process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);
  if (!hidden) panel.show();
}
