// Settings from the environment alone, over the defaults (tests and tools that have no settings file). The
// engine's configuration from settings is the engine's own (sandbox/engine-config.ts: engineConfigOf).
import { DEFAULT_SETTINGS, type Settings } from '../../shared/settings.js';
import { envLayer, resolveSettings } from './settings-layers.js';

export const DEFAULT_IMAGE = DEFAULT_SETTINGS.image;

export function settingsFromEnv(env: NodeJS.ProcessEnv): Settings {
  return resolveSettings([envLayer(env)]);
}
