// The control API's methods, each a few lines over the services it needs. Validation already happened
// in the router; errors thrown here are AppErrors whose messages reach the panel as they are.
import type { PanelRun } from './panel-runs.js';
import type { ClientChangePreview, ClientChangeResult, ClientId, ClientView, EndpointInfo, TokenKind } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { HISTORY_STATUSES, isHistoryStatus, type HistoryQuery } from '../../shared/history.js';
import { LimitsSchema, type Limits } from '../../shared/limits.js';
import type { SettingsChange, SettingsView } from '../../shared/contract.js';
import type { RuntimeTier } from '../../shared/health.js';
import type { Settings } from '../../shared/settings.js';
import type { HistoryStore } from '../history/history-store.js';
import type { HostExecChange } from '../settings/host-exec-fields.js';
import type { ServerManager } from '../proxy/server-manager.js';
import type { Engine } from '../sandbox/engine.js';
import type { HealthMonitor } from '../health/health-monitor.js';
import type { ImagePuller } from './image-puller.js';
import type { ApprovalBroker } from '../proxy/approval-broker.js';
import type { LiveMonitor } from './live-monitor.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { zodFields, type MethodTable } from './router.js';

export interface SettingsControl {
  get(): Settings;
  view(): SettingsView;
  update(patch: Record<string, unknown>, options?: { confirmed?: HostExecChange[] }): SettingsChange;
  /** Validates a patch and lists its host-executing changes (server commands, runtime); writes nothing. */
  hostExecChanges(patch: Record<string, unknown>): HostExecChange[];
}

export interface ClientsControl {
  detect(): Promise<ClientView[]>;
  preview(id: ClientId, action: 'add' | 'remove'): Promise<ClientChangePreview>;
  apply(id: ClientId, action: 'add' | 'remove'): Promise<ClientChangeResult>;
}

export interface EndpointControl {
  info(): EndpointInfo;
  token(kind: TokenKind): string;
  rotateToken(kind: TokenKind): string;
}

export interface ControlServices {
  engine: Engine;
  history: HistoryStore;
  servers: ServerManager;
  settings: SettingsControl;
  live: LiveMonitor;
  health: HealthMonitor;
  images: ImagePuller;
  clients: ClientsControl;
  endpoint: EndpointControl;
  approvals: ApprovalBroker;
  /** Live `run_python` sessions; absent where none are kept. */
  sessions?: Pick<SessionRegistry, 'list' | 'close' | 'refreshMemory'>;
  /** Runs code again as the panel (through the run service, like an MCP run). */
  rerun(run: PanelRun): Promise<{ id: string }>;
  /** The container command line for these limits under the current runtime and image. */
  previewFlags(limits: Limits): Promise<string[]>;
  /** Every installed runtime and isolation tier, probed with the current spec. */
  probeTiers(): Promise<RuntimeTier[]>;
  /** The desktop's native dialog for host-executing settings; absent (headless) means they are refused. */
  confirmHostExec?: (changes: HostExecChange[]) => Promise<boolean>;
  /** The desktop's native folder picker (null: cancelled); absent (headless) means folders are added in settings.json. */
  pickFolder?: () => Promise<string | null>;
}

function requireConnection(connectionId: string | undefined): string {
  if (!connectionId) throw new AppError('invalid_request', 'Output subscriptions need an event connection (open the event stream first)');
  return connectionId;
}

export function controlMethods(s: ControlServices): MethodTable {
  const serverViews = () => s.servers.status();
  const setPolicy = (name: string, policy: 'allow' | 'deny') => {
    if (!s.servers.status().some((v) => v.name === name)) throw new AppError('invalid_request', `No MCP server named '${name}' was discovered`);
    s.settings.update({ serverPolicies: { [name]: policy } });
    return serverViews();
  };
  return {
    'executions.list': (args) => {
      const statuses = args.status?.filter(isHistoryStatus);
      if (args.status && statuses?.length !== args.status.length) {
        throw new AppError('invalid_request', `Unknown status; use one of ${HISTORY_STATUSES.join(', ')}`, { fields: { status: 'unknown status' } });
      }
      const { status: _status, ...rest } = args;
      const query: HistoryQuery = { ...rest, ...(statuses ? { status: statuses } : {}) };
      return s.history.list(query);
    },
    'executions.get': ({ id }) => s.history.get(id),
    'executions.facets': () => ({ ...s.history.facets(), statuses: [...HISTORY_STATUSES] }),
    'executions.artifact': ({ runId, name }) => {
      const artifact = s.history.artifact(runId, name);
      if (!artifact) throw new AppError('invalid_request', `No artifact '${name}' of execution ${runId} in the history (retention may have removed the run)`);
      const { data, mimeType, size } = artifact;
      return { name, mimeType, size, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64') };
    },
    'executions.cancel': ({ id }) => ({ cancelled: s.engine.cancel(id) }),
    'executions.rerun': async ({ id }) => {
      const run = s.history.get(id);
      if (!run) throw new AppError('invalid_request', `No execution ${id} in the history`);
      return s.rerun({ code: run.code, servers: run.servers, packages: run.packages?.requirements ?? [], timeoutSec: run.timeoutSec });
    },
    'live.snapshot': () => s.live.snapshot(),
    'live.setPaused': ({ paused }) => {
      s.engine.setPaused(paused);
      return { paused: s.engine.paused };
    },
    'output.subscribe': ({ id }, ctx) => s.live.follow(requireConnection(ctx.connectionId), id),
    'output.unsubscribe': ({ id }, ctx) => {
      s.live.unfollow(requireConnection(ctx.connectionId), id);
      return { ok: true as const };
    },
    'settings.get': () => s.settings.view(),
    'settings.update': async ({ patch }, ctx) => {
      const hostExec = s.settings.hostExecChanges(patch);
      // Over HTTP nobody can be asked, and any local process may hold a token: refused there. In the
      // desktop window the person sees the exact command in a native dialog (outside the web page).
      if (hostExec.length === 0 || ctx.transport !== 'ipc' || !s.confirmHostExec) return s.settings.update(patch);
      if (!(await s.confirmHostExec(hostExec))) throw new AppError('cancelled', 'Nothing was changed: the change was not confirmed.');
      return s.settings.update(patch, { confirmed: hostExec });
    },
    'settings.previewFlags': async ({ limits }) => {
      const parsed = LimitsSchema.safeParse({ ...s.settings.get().limits, ...limits });
      if (!parsed.success) {
        const fields = Object.fromEntries(Object.entries(zodFields(parsed.error)).map(([k, v]) => [`limits.${k}`, v]));
        throw new AppError('invalid_config', 'These limits are not valid', { fields });
      }
      return { argv: await s.previewFlags(parsed.data) };
    },
    'folders.pick': async (_args, ctx) => {
      // Over HTTP nobody sits at this computer's screen: a folder is chosen in the desktop or in settings.json.
      if (ctx.transport !== 'ipc' || !s.pickFolder) throw new AppError('forbidden', 'Folders are chosen in the Sandbar desktop app (Limits › Folders) or added to settings.json.');
      return { path: await s.pickFolder() };
    },
    'health.get': () => s.health.latest,
    'health.probe': () => s.health.probe(),
    'health.tiers': () => s.probeTiers(),
    'image.pull': ({ image }) => {
      const name = image ?? s.settings.get().image;
      return { ...s.images.start(name), image: name };
    },
    'servers.list': () => serverViews(),
    'servers.tools': ({ name }) => s.servers.tools(name),
    'servers.allow': ({ name }) => setPolicy(name, 'allow'),
    'servers.deny': ({ name }) => setPolicy(name, 'deny'),
    'servers.restart': async ({ name }) => {
      await s.servers.restart(name);
      return serverViews();
    },
    'clients.detect': () => s.clients.detect(),
    'clients.preview': ({ id, action }) => s.clients.preview(id, action),
    'clients.configure': ({ id, action }) => s.clients.apply(id, action),
    'endpoint.info': () => s.endpoint.info(),
    'endpoint.token': ({ kind }) => ({ token: s.endpoint.token(kind) }),
    'endpoint.rotateToken': ({ kind }) => ({ token: s.endpoint.rotateToken(kind) }),
    'approvals.list': () => s.approvals.list(),
    'approvals.decide': ({ id, decision, via }) => ({ decided: s.approvals.decide(id, decision, via) }),
    // The panel may list and end every session (the person at the machine owns them all); memory is sampled now.
    'sessions.list': async () => {
      if (!s.sessions) return [];
      await s.sessions.refreshMemory();
      return s.sessions.list();
    },
    'sessions.close': async ({ id }) => ({ closed: s.sessions ? await s.sessions.close(id) : false }),
  };
}
