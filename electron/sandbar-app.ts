// The long-running product, shared by `sandbar serve` and the desktop app: the core, the control API
// (router + live/health monitors), and one loopback listener serving MCP at /mcp, the API at /api and the
// panel at /. The desktop adds IPC and the tray around the same router.
import { folderInfoOf } from '../shared/folders.js';
import path from 'node:path';
import type { EndpointInfo, TokenKind } from '../shared/contract.js';
import { AppError, errorMessage } from '../shared/errors.js';
import type { RuntimeTier } from '../shared/health.js';
import { createCore, type SandbarCore } from './core.js';
import { heldRunsFor, mcpDeps, runViewDeps } from './mcp/mcp-deps.js';
import { ClientConfigurator } from './clients/client-configurator.js';
import { controlMethods } from './control/control-methods.js';
import { egressCheck } from './health/app-checks.js';
import { HealthMonitor } from './health/health-monitor.js';
import { HttpApi } from './http/http-api.js';
import { ImagePuller } from './control/image-puller.js';
import { LiveMonitor } from './control/live-monitor.js';
import { PanelFiles } from './http/panel-files.js';
import { startAsPanel } from './control/panel-runs.js';
import { ControlRouter } from './control/router.js';
import { endpointCheck, poolCheck, serversCheck } from './health/service-checks.js';
import { clearInstance, writeInstance } from './instance-file.js';
import { InstanceProofRoute, newInstanceKey } from './instance-proof.js';
import { createLogger, type Logger } from './logger.js';
import { AppLog } from './log-file.js';
import { sandbarHome } from './settings/paths.js';
import { HttpEndpoint, type ExtraRoute } from './mcp/http-endpoint.js';
import { loadOrCreateToken, rotateToken } from './http/token-store.js';
import { createMcpServer } from './mcp/server-factory.js';
import { createModernMcpServer } from './mcp/modern-server.js';
import { RunOwners } from './mcp/run-owners.js';
import { packageRoot } from './package-info.js';
import type { HostExecChange } from './settings/host-exec-fields.js';
import type { SettingsLayer } from './settings/settings-layers.js';
import type { OpenedSettingsStore } from './settings/settings-store.js';

export interface SandbarAppOptions {
  env?: NodeJS.ProcessEnv;
  flags?: SettingsLayer;
  settingsStore?: OpenedSettingsStore;
  /** The built panel (dist/renderer by default). */
  panelDir?: string;
  /** How MCP clients that only launch commands start Sandbar (`sandbar stdio`). */
  stdioCommand?: () => { command: string; args: string[] };
  log?: Logger;
  /** The log file, when the caller opened it before its own first line (the desktop); otherwise opened here, first. */
  appLog?: AppLog;
  /**
   * The desktop's native confirmation for settings that run something on the host (server commands, the
   * runtime): shown with the exact command; without it such changes are refused on every channel.
   */
  confirmHostExec?: (changes: HostExecChange[]) => Promise<boolean>;
  /** The desktop's native folder picker (Limits › Folders); absent: folders come from settings.json. */
  pickFolder?: () => Promise<string | null>;
  /** How often the cheap runtime/image check runs (tests shorten it). */
  healthIntervalMs?: number;
}

export interface SandbarApp {
  core: SandbarCore;
  /** Where this instance writes its log ($SANDBAR_HOME/logs/sandbar.log, rotated). */
  logFile: string;
  router: ControlRouter;
  endpoint: HttpEndpoint;
  /** Where the client token (MCP clients) and the panel token (control API, panel) are stored. */
  tokenFiles: { client: string; panel: string };
  /** The panel's URL for a browser, with the one-time `#token=` fragment; null while not listening. */
  panelUrl(): string | null;
  /** `requireListener: false` (desktop) keeps going when the port is taken; `serve` fails instead. */
  start(options?: { requireListener?: boolean }): Promise<void>;
  /** Finishes runs in flight (bounded), removes every container, closes the listener. */
  dispose(graceMs?: number): Promise<void>;
}

/** Engine events that change what the live health rows say (pool, queue, running, servers). */
const LIVE_HEALTH_EVENTS = new Set(['queued', 'started', 'finished', 'poolChanged', 'pausedChanged', 'serverStateChanged']);

/** `node <cli.js> stdio`: what a client launches when it cannot speak HTTP. */
function defaultStdioCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: [path.join(packageRoot(), 'dist', 'electron', 'cli.js'), 'stdio'] };
}

export function createSandbarApp(options: SandbarAppOptions = {}): SandbarApp {
  const env = options.env ?? process.env;
  // The log file first, so it has every line this instance logs (the core's warnings, a new token's file).
  const appLog = options.appLog ?? new AppLog(sandbarHome(env));
  const log = options.log ?? createLogger('sandbar', env);
  const logFile = appLog.path;
  const core = createCore({ env, logFile, ...(options.flags ? { flags: options.flags } : {}), ...(options.settingsStore ? { settingsStore: options.settingsStore } : {}) });
  // Two credentials: the client token opens /mcp only (it is what client configs carry); the panel token
  // opens the control API and the panel. A leaked client config can run code, never change the host.
  const clientToken = loadOrCreateToken(core.home, 'client');
  const panelToken = loadOrCreateToken(core.home, 'panel');
  for (const created of [clientToken, panelToken].filter((t) => t.created)) log.info(`created a new access token in ${created.file}`);
  const tokens: Record<TokenKind, string> = { client: clientToken.token, panel: panelToken.token };
  // Both tokens (as they are now, after a rotation too) are never written to the log file.
  appLog.neverWrite(() => [tokens.client, tokens.panel]);
  let endpointError: string | null = null;

  // Monitors broadcast through the router, which is made last (it needs their methods); they only
  // broadcast once started.
   
  let router: ControlRouter;
  const broadcast: ControlRouter['broadcast'] = (event, data) => {
    router.broadcast(event, data);
    // The endpoint's row describes what endpoint.changed announces; a settings change can deny a server
    // or resize the pool.
    if (event === 'endpoint.changed' || event === 'settings.changed') health.refresh();
    // The index, the cache bound or the runtime (which decides whether packages work at all) may have moved.
    if (event === 'settings.changed') void health.remeasure();
  };

  const live = new LiveMonitor({
    engine: core.engine,
    sampleMemory: (names) => core.engine.backend.stats(names),
    broadcast,
    sendTo: (id, event, data) => router.sendTo(id, event, data),
    listening: () => router.connectionCount > 0,
  });
  const health = new HealthMonitor({
    collect: (probe) => core.health({ probe }),
    measured: async () => [await core.packagesHealth()],
    // Recomputed on every change of what they describe (see start()), so Health and Live agree.
    live: () => {
      const engine = core.engine.snapshot();
      return [
        endpointCheck(endpointInfo()),
        poolCheck(engine.pool, { running: engine.running.length, queued: engine.queued.length, paused: core.engine.paused }),
        serversCheck(core.servers.status()),
        // Follows the settings at once: allowing a host weakens isolation, and Health says so then.
        egressCheck(core.egressFacts(), core.engine.backend.features),
      ];
    },
    quickState: () => core.engine.backend.quickHealth(core.settings.image),
    onChange: (report) => broadcast('health.changed', report),
    log,
    ...(options.healthIntervalMs ? { intervalMs: options.healthIntervalMs } : {}),
  });
  const images = new ImagePuller({
    pull: (image, onLine, signal) => core.runtime.pullImage(image, onLine, signal),
    onProgress: (progress) => broadcast('image.pullProgress', progress),
    onPulled: () => void health.probe().catch(() => {}),
  });
  // instance.json's key: a listener that answers the proof with it is this process (instance-proof.ts).
  const instanceKey = newInstanceKey();
  const routes: ExtraRoute[] = [];
  const mcp = { runs: core.runs, settings: () => core.settings, artifacts: core.history, owners: new RunOwners(), runView: runViewDeps(core.engine, core.approvals.broker), folders: () => core.folders().mounts.map(folderInfoOf) };
  const held = heldRunsFor(mcp, log);
  const endpoint = new HttpEndpoint({
    port: core.settings.httpPort,
    token: () => tokens.client,
    createServer: () => createMcpServer(mcpDeps(mcp, 'http', log)),
    createModernServer: () => createModernMcpServer({ ...mcpDeps(mcp, 'http', log), held }),
    log,
    routes,
  });
  const endpointInfo = (): EndpointInfo => ({
    url: endpoint.listening ? endpoint.url : null,
    port: endpoint.listening ? endpoint.port : core.settings.httpPort,
    listening: endpoint.listening,
    error: endpointError,
    tokenFile: clientToken.file,
    panelTokenFile: panelToken.file,
    sessions: endpoint.sessionCount,
  });
  const clients = new ClientConfigurator({
    home: env.HOME || env.USERPROFILE || core.home,
    platform: process.platform,
    env,
    targets: {
      http: () => ({ url: endpoint.listening ? endpoint.url : `http://127.0.0.1:${core.settings.httpPort}/mcp`, token: tokens.client }),
      // This instance's home in the entry's env: without it the client's process would find another home
      // (its own defaults), with its own tokens, engine and history, instead of joining this one.
      stdio: () => ({ ...(options.stdioCommand ?? defaultStdioCommand)(), env: { SANDBAR_HOME: path.resolve(core.home) } }),
    },
  });

  // On demand only: a probe container per installed runtime and tier (loaded lazily, like the doctor's flag).
  let tiersInFlight: Promise<RuntimeTier[]> | undefined;
  const probeTiers = async () =>
    (await import('./health/runtime-tiers.js')).probeEveryTier({ env, platform: process.platform, owner: core.engine.owner, spec: core.engine.spec() });
  const table = controlMethods({
    engine: core.engine,
    history: core.history,
    servers: core.servers,
    settings: core.settingsService,
    live,
    health,
    images,
    clients,
    approvals: core.approvals.broker,
    ...(core.sessions ? { sessions: core.sessions } : {}),
    endpoint: {
      info: endpointInfo,
      token: (kind) => tokens[kind],
      rotateToken: (kind) => {
        // Effective at once: tokens are read per request, so the old one's next call gets 401. The other
        // token is left alone.
        tokens[kind] = rotateToken(core.home, kind).token;
        broadcast('endpoint.changed', endpointInfo());
        return tokens[kind];
      },
    },
    ...(options.confirmHostExec ? { confirmHostExec: options.confirmHostExec } : {}),
    ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}),
    rerun: (run) => startAsPanel(core.runs, run),
    previewFlags: (limits) => core.engine.previewArgs(limits),
    probeTiers: () => (tiersInFlight ??= probeTiers().finally(() => (tiersInFlight = undefined))),
  });
  router = new ControlRouter(table, log);
  router.onConnectionClosed((id) => live.connectionClosed(id));
  routes.push(
    new InstanceProofRoute({ key: instanceKey, url: () => endpoint.url }),
    new HttpApi({ router, token: () => tokens.panel }),
    new PanelFiles(options.panelDir ?? path.join(packageRoot(), 'dist', 'renderer')),
  );

  const relisten = async (port: number) => {
    try {
      await endpoint.relisten(port, async () => {
        endpointError = null;
        broadcast('endpoint.changed', endpointInfo());
        // Let the event leave the old listener's sockets before they close.
        await new Promise((resolve) => setTimeout(resolve, 250));
      });
      writeInstance(core.home, { pid: process.pid, url: endpoint.url, startedAt: Date.now(), key: instanceKey });
      log.info(`now listening on ${endpoint.url}`);
      return;
    } catch (err) {
      endpointError = `${errorMessage(err)} Still listening on port ${endpoint.port}.`;
      log.warn(endpointError);
    }
    broadcast('endpoint.changed', endpointInfo());
  };

  const disposers: (() => void)[] = [];
  return {
    core,
    logFile,
    router,
    endpoint,
    tokenFiles: { client: clientToken.file, panel: panelToken.file },
    panelUrl: () => (endpoint.listening ? `http://127.0.0.1:${endpoint.port}/#token=${tokens.panel}` : null),
    start: async ({ requireListener = true } = {}) => {
      try {
        await endpoint.start();
        writeInstance(core.home, { pid: process.pid, url: endpoint.url, startedAt: Date.now(), key: instanceKey });
      } catch (err) {
        // The desktop app is still useful without the listener (the window talks over IPC); health says why.
        if (requireListener || !(err instanceof AppError)) throw err;
        endpointError = err.message;
        log.warn(err.message);
      }
      await core.start();
      core.watchServers();
      live.start();
      health.start();
      disposers.push(
        core.settingsService.subscribe((change) => {
          broadcast('settings.changed', change);
          if (change.changed.includes('httpPort') && change.settings.httpPort !== endpoint.port) void relisten(change.settings.httpPort);
          if (change.changed.some((c) => ['image', 'seccomp', 'ociRuntime', 'runtime'].includes(c))) void health.probe().catch(() => {});
        }),
        // Each change carries fresh memory figures: otherwise a session opened after the panel loaded would
        // show none until the next full list. The list is taken after the sample, so it is never older.
        core.sessions?.subscribe(() => {
          void core.sessions?.refreshMemory().finally(() => broadcast('sessions.changed', { sessions: core.sessions?.list() ?? [] }));
        }) ?? (() => {}),
        core.onPackagesChanged(() => void health.remeasure()),
        core.engine.subscribe((event) => {
          // Pool, queue, running and servers rows: recomputed with the same events Live gets, when a panel or
          // the tray is there to be told (health.get recomputes them for one that connects later).
          if (LIVE_HEALTH_EVENTS.has(event.type) && router.connectionCount > 0) health.refresh();
          if (event.type === 'serverStateChanged') broadcast('server.state', { servers: core.servers.status() });
          if (event.type === 'approvalRequested') broadcast('approvals.changed', { pending: core.approvals.broker.list() });
          if (event.type === 'approvalResolved') broadcast('approvals.changed', { pending: core.approvals.broker.list(), last: event.outcome });
          // A run that could not start may mean the runtime went away: look now rather than in 30 s.
          if (event.type === 'finished' && event.result.exitReason === 'runtime_error') void health.check();
        }),
      );
    },
    dispose: async (graceMs = 10_000) => {
      // Order matters: refuse new work, let running calls answer (bounded), then close the listener.
      endpoint.stopAccepting();
      clearInstance(core.home);
      for (const dispose of disposers.splice(0)) dispose();
      health.dispose();
      live.dispose();
      await images.dispose();
      await core.dispose(graceMs);
      await endpoint.close();
      if (!options.appLog) appLog.close();
    },
  };
}
