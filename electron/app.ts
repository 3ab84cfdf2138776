// Composition root: settings → runtime → pool → engine (→ history → mcp → control, as they arrive).
// Services are wired by hand; constructors do no I/O, start() and dispose() do.
import type { HealthReport } from '../shared/health.js';
import type { Settings } from '../shared/settings.js';
import { ContainerRuntime } from './sandbox/container-runtime.js';
import { Engine, type EngineConfig, type EngineOptions } from './sandbox/engine.js';
import { collectHealth } from './sandbox/health.js';
import { engineConfigOf } from './settings/env-config.js';
import { loadSettings } from './settings/load-settings.js';
import type { SettingsLayer } from './settings/settings-layers.js';
import { SETTINGS_FILE } from './settings/paths.js';

export interface SandbarCore {
  home: string;
  settings: Settings;
  /** Shown in health: a corrupt settings file moved aside, for example. */
  warnings: string[];
  runtime: ContainerRuntime;
  engine: Engine;
  health(options?: { probe?: boolean }): Promise<HealthReport>;
  dispose(graceMs?: number): Promise<void>;
}

export function createCore(options: {
  env?: NodeJS.ProcessEnv;
  flags?: SettingsLayer;
  overrides?: Partial<EngineConfig>;
  engine?: EngineOptions;
} = {}): SandbarCore {
  const env = options.env ?? process.env;
  const { home, settings, warnings } = loadSettings({ env, ...(options.flags ? { flags: options.flags } : {}) });
  const config = { ...engineConfigOf(settings), ...options.overrides };
  const runtime = new ContainerRuntime({
    env,
    platform: process.platform,
    ...(settings.runtime ? { choice: { value: settings.runtime, label: `${SETTINGS_FILE}: runtime` } } : {}),
  });
  const engine = new Engine(runtime, config, options.engine);
  return {
    home,
    settings,
    warnings,
    runtime,
    engine,
    health: ({ probe = true } = {}) => collectHealth(runtime, engine.owner, engine.spec(), { probe }),
    dispose: (graceMs) => engine.dispose(graceMs),
  };
}
