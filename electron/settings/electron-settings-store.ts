// electron-store over the same `<home>/settings.json` as conf. The class is passed in (main.ts has it):
// electron-store imports `electron` when loaded, and only the Electron edge files may.
import type { OpenedSettingsStore, SettingsStore, SharedStoreOptions } from './settings-store.js';
import { prepareSettingsFile, SETTINGS_STORE_NAME, sharedStoreOptions } from './settings-store.js';

/** The part of electron-store's constructor used here (`import ElectronStore from 'electron-store'` fits). */
export type ElectronStoreConstructor = new (options: SharedStoreOptions & { name: string }) => SettingsStore;

export function openElectronStore(home: string, ElectronStore: ElectronStoreConstructor): OpenedSettingsStore {
  const warning = prepareSettingsFile(home);
  // An absolute cwd: electron-store would otherwise resolve it under app.getPath('userData').
  const store = new ElectronStore({ ...sharedStoreOptions(home), name: SETTINGS_STORE_NAME });
  return warning ? { store, warning } : { store };
}
