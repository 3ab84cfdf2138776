// The settings file as a key-value store. conf (plain Node: the CLI, `serve`, tests) and electron-store (the
// desktop app) are the same code and the same file format; both open exactly `<home>/settings.json`.
import { createRequire } from 'node:module';
import path from 'node:path';
import type ConfClass from 'conf';
import { SETTINGS_FILE } from './paths.js';
import { readSettingsFile } from './settings-file.js';

/** What both conf and electron-store provide: assigning `store` rewrites the whole file atomically. */
export interface SettingsStore {
  readonly path: string;
  store: Record<string, unknown>;
}

export interface OpenedSettingsStore {
  store: SettingsStore;
  /** Set when a corrupt file was moved aside before opening (shown in health). */
  warning?: string;
}

/** The file name without `.json`: conf calls it `configName`, electron-store `name`. */
export const SETTINGS_STORE_NAME = path.basename(SETTINGS_FILE, '.json');

/** Options both stores share, so they resolve to the same file and read it the same way. */
export interface SharedStoreOptions {
  cwd: string;
  /** Not a secret, but nothing other users need to read either. */
  configFileMode: number;
  /** Never wipe the file: a corrupt one has already been moved aside (see `prepareSettingsFile`). */
  clearInvalidConfig: false;
  /** An empty file reads as no settings, as `readSettingsFile` does, instead of conf's JSON error. */
  deserialize: (text: string) => Record<string, unknown>;
}

export function sharedStoreOptions(home: string): SharedStoreOptions {
  return {
    cwd: path.resolve(home),
    configFileMode: 0o600,
    clearInvalidConfig: false,
    deserialize: (text) => (text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>)),
  };
}

/**
 * Moves a corrupt settings file (not JSON, or JSON that is not an object) aside before a store opens it:
 * conf would throw on the first and silently turn an array into `{0: …}`. Returns the warning, if any.
 */
export function prepareSettingsFile(home: string): string | undefined {
  return readSettingsFile(path.join(home, SETTINGS_FILE)).warning;
}

/**
 * The file as it is, for a one-shot command that never saves settings: conf (with ajv and semver, about
 * 250 files) would cost a one-shot `sandbar run` about 0.1 s before its container can start.
 */
export function openReadOnlyStore(home: string): OpenedSettingsStore {
  const file = path.join(home, SETTINGS_FILE);
  const { values, warning } = readSettingsFile(file);
  const store: SettingsStore = {
    path: file,
    get store() {
      return values;
    },
    set store(_value) {
      throw new Error('This command only reads the settings');
    },
  };
  return warning ? { store, warning } : { store };
}

/** Loaded on first use, for the same reason. */
let Conf: typeof ConfClass | undefined;

/** conf over `<home>/settings.json`; no conf schema, defaults or migrations (zod validates). */
export function openConfStore(home: string): OpenedSettingsStore {
  const warning = prepareSettingsFile(home);
  Conf ??= (createRequire(import.meta.url)('conf') as { default: typeof ConfClass }).default;
  const store = new Conf<Record<string, unknown>>({
    ...sharedStoreOptions(home),
    configName: SETTINGS_STORE_NAME,
    projectName: 'sandbar',
  });
  return warning ? { store, warning } : { store };
}
