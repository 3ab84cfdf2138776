// electron-store (the desktop app) and conf (CLI, serve) must open the same file and read the same values.
// electron-store imports `electron` when loaded. vi.mock('electron') cannot reach that import: vitest leaves
// node_modules to Node's own loader (it would take `server.deps.inline: ['electron-store']`), so the seam is
// Node's module cache instead: `electron` resolves, from electron-store, to this object. It holds only the
// main-process pieces electron-store 11 touches in its constructor (app.getPath/getVersion, ipcMain.on).
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openElectronStore } from '../../../electron/settings/electron-settings-store.js';
import { SettingsService } from '../../../electron/settings/settings-service.js';
import { openConfStore } from '../../../electron/settings/settings-store.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';

const electron = {
  app: { getPath: vi.fn(() => '/nonexistent/userData'), getVersion: vi.fn(() => '0.0.0-test') },
  ipcMain: { on: vi.fn() },
  shell: { openPath: vi.fn() },
};
const require = createRequire(import.meta.url);
const electronEntry = require.resolve('electron', { paths: [path.dirname(require.resolve('electron-store'))] });
require.cache[electronEntry] = { id: electronEntry, filename: electronEntry, loaded: true, exports: electron } as unknown as NodeJS.Module;
afterAll(() => {
  delete require.cache[electronEntry];
});
// After the cache entry exists (a static import would be hoisted above it).
const { default: ElectronStore } = await import('electron-store');

const tempHome = () => mkdtempSync(path.join(tmpdir(), 'sandbar-estore-'));

describe('electron-store and conf over one settings file', () => {
  it('loads electron-store with the mocked main-process API (the seam is real, not bypassed)', () => {
    openElectronStore(tempHome(), () => ElectronStore);
    expect(electron.ipcMain.on).toHaveBeenCalledWith('electron-store-get-data', expect.any(Function));
  });

  it('opens exactly <home>/settings.json, not a file under userData', () => {
    const home = tempHome();
    const { store } = openElectronStore(home, () => ElectronStore);
    expect(store.path).toBe(path.join(home, 'settings.json'));
    expect(store.path).toBe(openConfStore(home).store.path);
  });

  it('reads with electron-store what conf wrote', () => {
    const home = tempHome();
    const conf = openConfStore(home).store;
    const values = { limits: { memory: '1g', pids: 200 }, serverPolicies: { github: 'deny' }, importClients: ['cursor'], launchAtLogin: true };
    conf.store = values;
    const estore = openElectronStore(home, () => ElectronStore).store;
    expect(estore.store).toEqual(values);
    expect(estore.path).toBe(conf.path);
  });

  it('reads with conf what electron-store wrote, through the service on both sides', () => {
    const home = tempHome();
    const desktop = new SettingsService({ store: openElectronStore(home, () => ElectronStore).store, env: {} });
    desktop.update({ httpPort: 9100, limits: { cpus: 1.5 }, serverPolicies: { x: 'deny' } });
    const cli = new SettingsService({ store: openConfStore(home).store, env: {} });
    expect(cli.get()).toEqual(desktop.get());
    expect(cli.get()).toEqual({ ...DEFAULT_SETTINGS, httpPort: 9100, limits: { ...DEFAULT_SETTINGS.limits, cpus: 1.5 }, serverPolicies: { x: 'deny' } });
    expect(cli.view().file).toBe(desktop.view().file);
    expect(JSON.parse(readFileSync(path.join(home, 'settings.json'), 'utf8'))).toEqual({ httpPort: 9100, limits: { cpus: 1.5 }, serverPolicies: { x: 'deny' } });
  });

  it('writes the file owner-only, like conf', () => {
    if (process.platform === 'win32') return;
    const home = tempHome();
    openElectronStore(home, () => ElectronStore).store.store = { poolSize: 1 };
    expect(statSync(path.join(home, 'settings.json')).mode & 0o777).toBe(0o600);
  });

  it('moves a corrupt file aside before electron-store opens it, as for conf', () => {
    const home = tempHome();
    writeFileSync(path.join(home, 'settings.json'), '{"poolSize": ');
    const opened = openElectronStore(home, () => ElectronStore);
    expect(opened.store.store).toEqual({});
    const aside = readdirSync(home).filter((f) => f.startsWith('settings.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(home, aside[0]!), 'utf8')).toBe('{"poolSize": ');
    expect(opened.warning).toContain(aside[0]);
  });
});
