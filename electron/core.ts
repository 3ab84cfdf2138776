// Composition root: settings → runtime → pool → engine → proxy → history (the control API and the HTTP
// listener are added by sandbar-app.ts). Services are wired by hand; constructors do no I/O, start() and
// dispose() do. Settings changes are applied here, live: nothing needs a restart.
import type { HealthCheck, HealthReport } from '../shared/health.js';
import type { Settings } from '../shared/settings.js';
import { homedir } from 'node:os';
import path from 'node:path';
import { BACKEND_SETTING_KEYS, BackendChooser, cliRuntimeChoice } from './backend-choice.js';
import { collectAppHealth, packagesRow, type HealthSources } from './health/app-health.js';
import type { EgressFacts } from './health/app-checks.js';
import { EgressRuns } from './egress/egress-runs.js';
import { HISTORY_FILE, HistoryStore } from './history/history-store.js';
import { openWhileRunning } from './history/open-while-running.js';
import { createLogger } from './logger.js';
import { packageInfo } from './package-info.js';
import { discoverServers, type DiscoveryOptions } from './proxy/discovery/discover.js';
import { DiscoveryWatcher } from './proxy/discovery/watcher.js';
import { ServerManager } from './proxy/server-manager.js';
import { ApprovalBroker } from './proxy/approval-broker.js';
import { toolPolicyFor } from '../shared/approvals.js';
import { agentBootModules } from './sandbox/agent/bootstrap.js';
import { newOwner } from './sandbox/backend.js';
import { ContainerRuntime } from './sandbox/cli/container-runtime.js';
import { Engine, type EngineConfig, type EngineOptions } from './sandbox/engine.js';
import { PackageManager } from './packages/package-manager.js';
import { packageRuntimeOf } from './packages/package-runtime.js';
import { RunService } from './runs/run-service.js';
import { seccompProfileFor } from './sandbox/seccomp-profile.js';
import { fileFactsCache } from './sandbox/cli/runtime-facts-cache.js';
import { engineConfigOf } from './sandbox/engine-config.js';
import { fitFolders, type FolderPlan } from './sandbox/folder-fit.js';
import { folderJudgeFor } from './settings/folder-context.js';
import { PACKAGES_DIR, sandbarHome } from './settings/paths.js';
import { ensurePrivateHome } from './settings/private-home.js';
import { SettingsService } from './settings/settings-service.js';
import type { SettingsLayer } from './settings/settings-layers.js';
import { openConfStore, openReadOnlyStore, type OpenedSettingsStore } from './settings/settings-store.js';
import { engineSandboxes } from './sessions/engine-sandboxes.js';
import { SessionJournal } from './sessions/session-journal.js';
import { SessionRegistry } from './sessions/session-registry.js';

export interface SandbarCore {
  home: string;
  /** The user's MCP servers: discovery, supervised connections, and the sandbox's host calls. */
  servers: ServerManager;
  /** Every execution, recorded from the engine's event stream (shared by all surfaces). */
  history: HistoryStore;
  /** Opens the history, removes dead instances' containers, warms the pool. */
  start(): Promise<void>;
  /** The settings in force now (they change when the panel saves). */
  readonly settings: Settings;
  settingsService: SettingsService;
  /** Shown in health: a corrupt settings file moved aside, for example. */
  readonly warnings: string[];
  /** The user's folders now: those every sandbox mounts, and those refused with their rules. */
  folders(): FolderPlan;
  /** What Health's egress row reads: the rules, the secrets' names and hosts, and which secrets cannot be used now. */
  egressFacts(): EgressFacts;
  runtime: ContainerRuntime;
  engine: Engine;
  health(options?: { probe?: boolean }): Promise<HealthReport>;
  /** Health's packages row as the cache is now (no probe). */
  packagesHealth(): Promise<HealthCheck>;
  /** Called after every package preparation (a layer built or reused, a fetch that failed). */
  onPackagesChanged(listener: () => void): () => void;
  /** Tool calls waiting for a person (answered from the panel, the tray, the CLI or the run's own client). */
  approvals: { broker: ApprovalBroker };
  /** Starts runs for every surface (MCP, the panel's Re-run, `sandbar run`): the one way to the engine. */
  runs: RunService;
  packageManager: PackageManager;
  /** Stateful `run_python` sessions (none in a one-shot command). */
  sessions?: SessionRegistry;
  /** Long-running surfaces keep discovery live: config files edited while running are picked up. */
  watchServers(): void;
  dispose(graceMs?: number): Promise<void>;
}


/** Did any of these dotted paths (or anything below them) change? */
const touched = (changed: readonly string[], ...keys: string[]) => changed.some((c) => keys.some((k) => c === k || c.startsWith(`${k}.`)));

export function createCore(options: {
  env?: NodeJS.ProcessEnv;
  flags?: SettingsLayer;
  overrides?: Partial<EngineConfig>;
  engine?: EngineOptions;
  /** The desktop app passes electron-store here; everything else uses conf over the same file. */
  settingsStore?: OpenedSettingsStore;
  /** A single command (`sandbar run`): reads settings without writing, trusts a fresh cached `info` answer, leaves reaping to instances. */
  oneShot?: boolean;
  /** Python modules every agent gets at boot (the sandbox-side MCP runtime by default). */
  bootModules?: () => Record<string, string>;
  /** Where this process writes its log (serve, desktop), shown in health. */
  logFile?: string;
} = {}): SandbarCore {
  const env = options.env ?? process.env;
  const home = sandbarHome(env);
  ensurePrivateHome(home);
  const opened = options.settingsStore ?? (options.oneShot ? openReadOnlyStore(home) : openConfStore(home));
  const settingsService = new SettingsService({
    store: opened.store,
    env,
    ...(options.flags ? { flags: options.flags } : {}),
    warnings: opened.warning ? [opened.warning] : [],
    // What importClients / allowSelfServer would bring in, for the desktop's confirmation (read when asked).
    serversPreview: (s) => discoverServers(discoveryOptionsOf(s)).servers,
  });
  const settings = settingsService.get();
  const choice = cliRuntimeChoice(settings);
  const runtime = new ContainerRuntime({
    env,
    platform: process.platform,
    ...(choice ? { choice } : {}),
    ...(options.oneShot ? { factsCache: fileFactsCache(home) } : {}),
  });
  // Podman/Docker through their CLI, or pods in a cluster (runtime "kubernetes"); switchable live.
  // One owner for every backend and the package helpers: the reaper spares exactly what this instance made.
  const owner = newOwner();
  const packageManager = new PackageManager({
    root: path.join(home, PACKAGES_DIR),
    indexUrl: () => settingsService.get().packageIndex,
    capBytes: () => settingsService.get().packageCacheMB * 1024 * 1024,
    runtime: () => {
      const s = settingsService.get();
      const seccompProfile = seccompProfileFor(s.seccomp);
      return packageRuntimeOf(runtime, { limits: s.limits, owner, ...(seccompProfile ? { seccompProfile } : {}), ...(s.ociRuntime ? { ociRuntime: s.ociRuntime } : {}) });
    },
  });
  // Podman/Docker through their CLI, or another backend the settings choose (kubernetes); switchable live.
  const chooser = new BackendChooser(runtime, owner, options.bootModules ?? agentBootModules);
  // Every sandbox sees the layers read-only where the backend can mount them; a run with `packages` puts its own layer on sys.path.
  const withLayers = (s: Settings) => (chooser.backendFor(s).features.packages ? { packageLayers: packageManager.store.layersDir } : {});
  // The user's folders: judged (symlinks resolved, protected places refused), then fit to the backend.
  const judge = folderJudgeFor(env);
  // The engine fits them to its backend when it builds a spec (a CLI backend knows Podman from Docker only
  // once the runtime is found); health fits them the same way when asked.
  let judged = judge.judgeAll(settings.folders);
  const engineConfigFor = (s: Settings): EngineConfig => ({ ...engineConfigOf(s), ...withLayers(s), folders: judged.mounts, ...options.overrides });
  const config = engineConfigFor(settings);
  // One egress proxy per run while egress.allow is not empty. It reads the real secrets through get(): what
  // a settings-change listener receives has them masked. The CA (key 0600) lives in the private home.
  const egressRuns = new EgressRuns({ home, env, settings: () => settingsService.get() });
  // Matplotlib font lists per image, owner-only like the rest of SANDBAR_HOME (see warm-imports.ts).
  const engine = new Engine(chooser.backendFor(settings), config, {
    fontCacheDir: path.join(home, 'image-cache'),
    egress: (onRecord) => egressRuns.forRun(onRecord),
    ...options.engine,
    ...(options.oneShot ? { oneShot: true } : {}),
  });
  // Questions about tool calls from code: every channel at once, the first answer wins.
  const broker = new ApprovalBroker({
    timeoutMs: () => settingsService.get().approvalTimeoutSec * 1000,
    onRequested: (approval) => engine.publish({ type: 'approvalRequested', approval }),
    onResolved: (outcome) => engine.publish({ type: 'approvalResolved', outcome }),
    allowAlways: (server, tool) => {
      settingsService.update({ toolPolicies: { ...settingsService.get().toolPolicies, [`${server}/${tool}`]: 'allow' } });
    },
  });
  const servers: ServerManager = new ServerManager({
    startTimeoutMs: settings.serverStartTimeoutSec * 1000,
    callTimeoutMs: settings.toolCallTimeoutSec * 1000,
    version: packageInfo().version,
    policy: (name) => settingsService.get().serverPolicies[name] ?? 'allow',
    publish: (event) => engine.publish(event),
    approvals: {
      policy: (server, tool, annotations) => toolPolicyFor(settingsService.get().toolPolicies, server, tool, annotations),
      broker,
      channels: (runId) => runs.channelsFor(runId),
      timeoutSec: () => settingsService.get().approvalTimeoutSec,
      ...(options.oneShot ? { nobodyToAsk: true } : {}),
    },
  });
  engine.subscribe((event) => {
    if (event.type === 'finished') broker.endRun(event.result.id);
  });
  const discoveryOptionsOf = (s: Settings): DiscoveryOptions => ({
    home: env.HOME || env.USERPROFILE || homedir(),
    env,
    platform: process.platform,
    settingsServers: Object.entries(s.mcpServers).map(([name, entry]) => ({ name, entry })),
    importClients: s.importClients,
    allowSelf: s.allowSelfServer,
    ownPort: s.httpPort || null,
  });
  let discoveryOptions = discoveryOptionsOf(settings);
  servers.setDiscovery(discoverServers(discoveryOptions));
  let watcher: DiscoveryWatcher | undefined;
  const startWatcher = () => {
    watcher?.dispose();
    watcher = new DiscoveryWatcher({ ...discoveryOptions, onChange: (result) => servers.setDiscovery(result) });
    watcher.start();
  };
  const retentionOf = (s: Settings) => ({ maxAgeDays: s.historyMaxAgeDays, maxBytes: s.historyMaxMB * 1_000_000 });
  const history = new HistoryStore({
    file: path.join(home, HISTORY_FILE),
    logger: createLogger('history', env),
    retention: retentionOf(settings),
    currentLimits: () => engine.currentConfig.limits,
  });

  // Sessions hold a warm sandbox each, paused between calls; a one-shot command keeps none.
  const sessions = options.oneShot
    ? undefined
    : new SessionRegistry(
        engineSandboxes(engine),
        () => {
          const s = settingsService.get();
          return { idleSec: s.sessionIdleSec, maxSec: s.sessionMaxSec, maxSessions: s.maxSessions, checkpoints: s.sessionCheckpoints };
        },
        { journal: new SessionJournal(home), memoryLimit: () => engine.currentConfig.limits.memory },
      );
  const packageListeners = new Set<() => void>();
  const packagesChanged = () => {
    for (const listener of packageListeners) listener();
  };
  const runs: RunService = new RunService({
    engine,
    servers,
    // Bound to the image in force when the run starts.
    // Each preparation may add a layer, collect old ones or record a fetch problem: Health reads the cache again.
    packages: { prepare: (requirements, signal) => packageManager.prepare(requirements, settingsService.get().image, signal).finally(packagesChanged) },
    ...(sessions ? { sessions } : {}),
    approvals: broker,
    maxCodeBytes: () => settingsService.get().maxCodeBytes,
  });

  // What Health's egress row reads: the rules and secret names, and which secrets cannot be used now. The
  // live row is recomputed on every run event, so it reads the secrets' sources only when they change or a
  // full health check runs (a variable or file fixed outside Sandbar shows at the next check), never per run.
  let secretProblems = egressRuns.secretProblems();
  const stopApplying = settingsService.subscribe(({ settings: next, changed }) => {
    if (touched(changed, 'runtime')) runtime.choose(cliRuntimeChoice(next));
    if (touched(changed, ...BACKEND_SETTING_KEYS)) engine.setBackend(chooser.backendFor(next));
    // New limits or image: the pool drains and refills with containers made to the new spec.
    const engineKeys = ['limits', 'image', 'poolSize', 'poolMax', 'concurrency', 'queueLimit', 'maxToolCallsInFlight', 'seccomp', 'ociRuntime', 'runtime', 'approvalTimeoutSec'];
    if (touched(changed, 'folders')) judged = judge.judgeAll(next.folders);
    if (touched(changed, 'secrets')) secretProblems = egressRuns.secretProblems();
    // New folders drain the pool like new limits: every sandbox from now on has exactly the new list.
    if (touched(changed, ...engineKeys, 'imageCapBytes', 'artifactMaxFiles', 'artifactMaxBytes', 'preload', 'sessionMaxSec', 'folders', ...BACKEND_SETTING_KEYS)) {
      engine.updateConfig(engineConfigFor(next));
    }
    if (touched(changed, 'serverPolicies')) servers.applyPolicies();
    if (touched(changed, 'mcpServers', 'importClients', 'allowSelfServer', 'httpPort')) {
      discoveryOptions = discoveryOptionsOf(next);
      servers.setDiscovery(discoverServers(discoveryOptions));
      if (watcher) startWatcher();
    }
    if (touched(changed, 'historyMaxAgeDays', 'historyMaxMB')) history.setRetention(retentionOf(next));
  });

  const egressFacts = (): EgressFacts => ({ ...settingsService.get(), secretProblems });
  const healthSources: HealthSources = {
    backend: () => engine.backend,
    spec: () => engine.spec(),
    history: () => history.health(),
    settingsWarnings: () => settingsService.warnings,
    folders: () => fitFolders(engine.backend.features, judged),
    egress: () => {
      secretProblems = egressRuns.secretProblems();
      return egressFacts();
    },
    packages: async () => ({
      index: settingsService.get().packageIndex,
      usage: await packageManager.store.usage().catch(() => null),
      lastProblem: packageManager.lastProblem,
    }),
    ...(options.logFile ? { logFile: options.logFile } : {}),
  };

  let historyRecorded = () => Promise.resolve();
  return {
    home,
    servers,
    history,
    start: async () => {
      // The layers directory must exist before any sandbox mounts it.
      await packageManager.store.init();
      // With folders, know Podman from Docker before the first spec is built: Docker mounts no writable
      // folder, and a run must record exactly the folders its sandbox got (the lookup is needed anyway).
      if (judged.mounts.length > 0) await runtime.resolve().catch(() => {});
      if (options.oneShot) {
        historyRecorded = openWhileRunning((listener) => engine.subscribe(listener), history);
        await engine.start();
        return;
      }
      await history.start();
      engine.subscribe((event) => history.record(event));
      await engine.start();
      // After the reaper removed the last life's sandboxes: their sessions end as "restarted".
      sessions?.start();
    },
    watchServers: () => {
      if (!watcher) startWatcher();
    },
    get settings() {
      return settingsService.get();
    },
    settingsService,
    egressFacts,
    get warnings() {
      return settingsService.warnings;
    },
    folders: () => fitFolders(engine.backend.features, judged),
    runtime,
    engine,
    ...(sessions ? { sessions } : {}),
    approvals: { broker },
    runs,
    packageManager,
    health: ({ probe = true } = {}) => collectAppHealth(healthSources, { probe }),
    packagesHealth: () => packagesRow(healthSources),
    onPackagesChanged: (listener) => {
      packageListeners.add(listener);
      return () => packageListeners.delete(listener);
    },
    dispose: async (graceMs) => {
      stopApplying();
      watcher?.dispose();
      sessions?.dispose();
      await engine.dispose(graceMs);
      await servers.dispose();
      // After the engine: the last cancelled runs are still recorded.
      await historyRecorded();
      await history.pruning?.catch(() => {});
      history.dispose();
    },
  };
}
