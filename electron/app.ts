// Composition root: settings → runtime → pool → engine (→ history → mcp → control, as they arrive).
// Services are wired by hand; constructors do no I/O, start() and dispose() do.
import type { HealthReport } from '../shared/health.js';
import type { Settings } from '../shared/settings.js';
import { homedir } from 'node:os';
import path from 'node:path';
import { withAppChecks } from './app-health.js';
import { HISTORY_FILE, HistoryStore } from './history/history-store.js';
import { createLogger } from './logger.js';
import { packageInfo } from './package-info.js';
import { discoverServers, type DiscoveryOptions } from './proxy/discovery/discover.js';
import { DiscoveryWatcher } from './proxy/discovery/watcher.js';
import { ServerManager } from './proxy/server-manager.js';
import { ContainerRuntime } from './sandbox/container-runtime.js';
import { Engine, type EngineConfig, type EngineOptions } from './sandbox/engine.js';
import { collectHealth } from './sandbox/health.js';
import { engineConfigOf } from './settings/env-config.js';
import { loadSettings } from './settings/load-settings.js';
import type { SettingsLayer } from './settings/settings-layers.js';
import { SETTINGS_FILE } from './settings/paths.js';

export interface SandbarCore {
  home: string;
  /** The user's MCP servers: discovery, supervised connections, and the sandbox's host calls. */
  servers: ServerManager;
  /** Every execution, recorded from the engine's event stream (shared by all surfaces). */
  history: HistoryStore;
  /** Opens the history, removes dead instances' containers, warms the pool. */
  start(): Promise<void>;
  settings: Settings;
  /** Shown in health: a corrupt settings file moved aside, for example. */
  warnings: string[];
  runtime: ContainerRuntime;
  engine: Engine;
  health(options?: { probe?: boolean }): Promise<HealthReport>;
  /** Long-running surfaces keep discovery live: config files edited while running are picked up. */
  watchServers(): void;
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
  const servers = new ServerManager({
    startTimeoutMs: settings.serverStartTimeoutSec * 1000,
    callTimeoutMs: settings.toolCallTimeoutSec * 1000,
    version: packageInfo().version,
    policy: (name) => settings.serverPolicies[name] ?? 'allow',
    publish: (event) => engine.publish(event),
  });
  const discoveryOptions: DiscoveryOptions = {
    home: env.HOME || env.USERPROFILE || homedir(),
    env,
    platform: process.platform,
    settingsServers: Object.entries(settings.mcpServers).map(([name, entry]) => ({ name, entry })),
    importClients: settings.importClients,
    allowSelf: settings.allowSelfServer,
    ownPort: settings.httpPort || null,
  };
  servers.setDiscovery(discoverServers(discoveryOptions));
  let watcher: DiscoveryWatcher | undefined;
  const history = new HistoryStore({
    file: path.join(home, HISTORY_FILE),
    logger: createLogger('history', env),
    retention: { maxAgeDays: settings.historyMaxAgeDays, maxBytes: settings.historyMaxMB * 1_000_000 },
    currentLimits: () => engine.currentConfig.limits,
  });
  return {
    home,
    servers,
    history,
    start: async () => {
      await history.start();
      engine.subscribe((event) => history.record(event));
      await engine.start();
    },
    watchServers: () => {
      watcher ??= new DiscoveryWatcher({ ...discoveryOptions, onChange: (result) => servers.setDiscovery(result) });
      watcher.start();
    },
    settings,
    warnings,
    runtime,
    engine,
    health: async ({ probe = true } = {}) => withAppChecks(await collectHealth(runtime, engine.owner, engine.spec(), { probe }), history.health(), warnings),
    dispose: async (graceMs) => {
      watcher?.dispose();
      await engine.dispose(graceMs);
      await servers.dispose();
      // After the engine: the last cancelled runs are still recorded.
      await history.pruning?.catch(() => {});
      history.dispose();
    },
  };
}
