// electron-store over the same `<home>/settings.json` as conf, behind the same SettingsStore interface. The
// class comes from a loader main.ts passes: electron-store imports `electron` when loaded, and only the
// Electron edge files may (tests pass conf's own class, or electron-store with Electron stood in).
import type { OpenedSettingsStore, SettingsStore, SharedStoreOptions } from './settings-store.js';
import { prepareSettingsFile, SETTINGS_STORE_NAME, sharedStoreOptions } from './settings-store.js';

/** The part of electron-store's constructor used here (`import ElectronStore from 'electron-store'` fits). */
export type ElectronStoreConstructor = new (options: SharedStoreOptions & { name: string }) => SettingsStore;

export function openElectronStore(home: string, load: () => ElectronStoreConstructor): OpenedSettingsStore {
  const warning = prepareSettingsFile(home);
  const ElectronStore = load();
  // An absolute cwd: electron-store would otherwise resolve it under app.getPath('userData').
  const store = new ElectronStore({ ...sharedStoreOptions(home), name: SETTINGS_STORE_NAME });
  return warning ? { store, warning } : { store };
}

