// Resolves the settings every surface starts from: flag > environment > settings file > default.
import path from 'node:path';
import type { Settings } from '../../shared/settings.js';
import { sandbarHome, SETTINGS_FILE } from './paths.js';
import { readSettingsFile } from './settings-file.js';
import { envLayer, fileLayer, resolveSettings, type SettingsLayer } from './settings-layers.js';

export interface LoadedSettings {
  home: string;
  settings: Settings;
  /** Things a person should know (shown in health): a corrupt file moved aside, for example. */
  warnings: string[];
}

export function loadSettings(options: { env: NodeJS.ProcessEnv; flags?: SettingsLayer; platform?: NodeJS.Platform }): LoadedSettings {
  const home = sandbarHome(options.env, options.platform);
  const file = readSettingsFile(path.join(home, SETTINGS_FILE));
  const layers = [fileLayer(file.values, SETTINGS_FILE), envLayer(options.env), ...(options.flags ? [options.flags] : [])];
  return { home, settings: resolveSettings(layers), warnings: file.warning ? [file.warning] : [] };
}
