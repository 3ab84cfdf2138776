// The one place events enter the stores: subscribes to `api.on(...)` outside React, calls store actions,
// fetches snapshots at start and after any reconnect or missed event, and owns output subscriptions.
import type { SandbarApi } from '../../shared/contract.js';
import type { ConnectionSource } from '../api/connection.js';
import { useApprovalsStore } from './approvals-store.js';
import { useConnectionStore } from './connection-store.js';
import { useEndpointStore } from './endpoint-store.js';
import { useHealthStore } from './health-store.js';
import { useHistoryStore } from './history-store.js';
import { useLiveStore } from './live-store.js';
import { useOutputStore } from './output-store.js';
import { useServersStore } from './servers-store.js';
import { useSessionsStore } from './sessions-store.js';
import { useSettingsStore } from './settings-store.js';

export interface Bridge {
  /** Fetches every snapshot again (live, settings, health, servers, endpoint, approvals, sessions). */
  refresh(): Promise<void>;
  /** Streams an execution's output into the output store while the returned disposer is not called. */
  watchOutput(id: string): () => void;
  /** Connect again after `unauthorized` (the user may have opened a new link). */
  retry(): void;
  stop(): void;
}

export interface BridgeOptions {
  connection?: ConnectionSource;
  /** A missed event triggers one snapshot fetch after this delay (events in flight settle first). */
  resyncDelayMs?: number;
}

const warn = (what: string) => (err: unknown) => console.warn(`sandbar: ${what} failed:`, err instanceof Error ? err.message : err);

export function startBridge(api: SandbarApi, options: BridgeOptions = {}): Bridge {
  const resyncDelayMs = options.resyncDelayMs ?? 250;
  const offs: (() => void)[] = [];
  const watchers = new Map<string, number>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let liveTimer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const live = () => useLiveStore.getState();
  const history = () => useHistoryStore.getState();
  const later = (fn: () => void, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!stopped) fn();
    }, ms);
    timers.add(t);
    return t;
  };

  const loadLive = () =>
    api.call('live.snapshot', {}).then((s) => live().snapshotLoaded(s), warn('live.snapshot'));
  const loadSettings = () =>
    api.call('settings.get', {}).then((v) => useSettingsStore.getState().settingsLoaded(v), warn('settings.get'));

  /** Debounced: several missed events in a row cost one fetch. */
  const resyncLive = () => {
    if (liveTimer !== null) return;
    liveTimer = later(() => {
      liveTimer = null;
      void loadLive();
    }, resyncDelayMs);
  };

  const subscribeOutput = (id: string) => {
    useOutputStore.getState().outputLoading(id);
    api.call('output.subscribe', { id }).then(
      (buffer) => useOutputStore.getState().outputLoaded(id, buffer),
      (err: unknown) => {
        useOutputStore.getState().outputLoaded(id, null);
        warn('output.subscribe')(err);
      },
    );
  };

  const refresh = async () => {
    await Promise.all([
      loadLive(),
      loadSettings(),
      api.call('health.get', {}).then((r) => useHealthStore.getState().healthLoaded(r), warn('health.get')),
      api.call('servers.list', {}).then((s) => useServersStore.getState().serversLoaded(s), warn('servers.list')),
      api.call('endpoint.info', {}).then((i) => useEndpointStore.getState().endpointChanged(i), warn('endpoint.info')),
      api.call('approvals.list', {}).then((p) => useApprovalsStore.getState().approvalsLoaded(p), warn('approvals.list')),
      api.call('sessions.list', {}).then((s) => useSessionsStore.getState().sessionsLoaded(s), warn('sessions.list')),
    ]);
  };

  offs.push(
    api.on('execution.queued', (e) => {
      live().executionQueued(e);
      history().executionQueued(e.execution);
    }),
    api.on('execution.started', (e) => {
      history().executionStarted(e.id, e.at);
      if (!live().executionStarted(e)) resyncLive();
    }),
    api.on('execution.finished', (e) => {
      live().executionFinished(e);
      history().executionFinished(e.result);
    }),
    api.on('execution.stats', (e) => live().executionStats(e)),
    api.on('execution.toolCall', (e) => {
      live().executionToolCall(e);
      history().toolCallRecorded(e.call.executionId);
    }),
    api.on('execution.egress', (e) => live().executionEgress(e)),
    api.on('output.chunk', (e) => useOutputStore.getState().outputChunk(e)),
    api.on('live.changed', (e) => {
      if (!live().liveChanged(e)) resyncLive();
    }),
    api.on('health.changed', (e) => useHealthStore.getState().healthChanged(e)),
    api.on('settings.changed', (e) => {
      if (!useSettingsStore.getState().settingsChanged(e)) void loadSettings();
    }),
    api.on('server.state', (e) => useServersStore.getState().serverState(e)),
    api.on('image.pullProgress', (e) => useHealthStore.getState().imagePullProgress(e)),
    api.on('endpoint.changed', (e) => useEndpointStore.getState().endpointChanged(e)),
    api.on('approvals.changed', (e) => useApprovalsStore.getState().approvalsChanged(e)),
    api.on('sessions.changed', (e) => useSessionsStore.getState().sessionsChanged(e)),
  );

  const connection = options.connection;
  if (connection) {
    useConnectionStore.getState().connectionChanged(connection.status);
    offs.push(
      connection.onStatus((status) => {
        const previous = useConnectionStore.getState().status;
        useConnectionStore.getState().connectionChanged(status);
        // First connect (or authorised again after a new link): events missed before it are covered by a
        // fresh snapshot. Reconnects after a drop arrive as `onResync` instead.
        if (previous === 'connecting' && status === 'open') void refresh();
      }),
      connection.onResync(() => {
        void refresh();
        for (const id of watchers.keys()) subscribeOutput(id);
      }),
    );
  }

  void refresh();

  return {
    refresh,
    watchOutput(id) {
      const count = watchers.get(id) ?? 0;
      watchers.set(id, count + 1);
      if (count === 0) subscribeOutput(id);
      let disposed = false;
      return () => {
        if (disposed) return;
        disposed = true;
        const left = (watchers.get(id) ?? 1) - 1;
        if (left > 0) {
          watchers.set(id, left);
          return;
        }
        watchers.delete(id);
        if (!stopped) api.call('output.unsubscribe', { id }).catch(warn('output.unsubscribe'));
      };
    },
    retry() {
      connection?.retry();
    },
    stop() {
      stopped = true;
      for (const off of offs.splice(0)) off();
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

let active: Bridge | null = null;

/** Starts the app's bridge once (main.tsx); components reach it through `getBridge()`. */
export function installBridge(api: SandbarApi, options?: BridgeOptions): Bridge {
  active?.stop();
  active = startBridge(api, options);
  return active;
}

export function getBridge(): Bridge | null {
  return active;
}

/** For components: stream an execution's output while mounted (no-op before the bridge starts). */
export function watchOutput(id: string): () => void {
  return active ? active.watchOutput(id) : () => {};
}
