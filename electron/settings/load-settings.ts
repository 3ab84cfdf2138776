// Resolves the settings every surface starts from: flag > environment > settings file > default.
import path from 'node:path';
import type { Settings } from '../../shared/settings.js';
import { sandbarHome, SETTINGS_FILE } from './paths.js';
import { readSettingsFile } from './settings-file.js';
import type { SettingsLayer } from './settings-layers.js';
import { SettingsService } from './settings-service.js';
import type { SettingsStore } from './settings-store.js';

export interface LoadedSettings {
  home: string;
  settings: Settings;
  /** Things a person should know (shown in health): a corrupt file moved aside, for example. */
  warnings: string[];
}

/** One read of the settings, through the same layering as the app's SettingsService, without writing. */
export function loadSettings(options: { env: NodeJS.ProcessEnv; flags?: SettingsLayer; platform?: NodeJS.Platform }): LoadedSettings {
  const home = sandbarHome(options.env, options.platform);
  const file = path.join(home, SETTINGS_FILE);
  const contents = readSettingsFile(file);
  // A read-only snapshot rather than conf: the CLI never writes settings, and this keeps conf out of its start-up.
  const store: SettingsStore = {
    path: file,
    get store() {
      return contents.values;
    },
    set store(_values) {
      throw new Error('loadSettings is read-only; use a SettingsService over a real store to write settings');
    },
  };
  const service = new SettingsService({ store, env: options.env, ...(options.flags ? { flags: options.flags } : {}), warnings: contents.warning ? [contents.warning] : [] });
  return { home, settings: service.get(), warnings: service.warnings };
}
