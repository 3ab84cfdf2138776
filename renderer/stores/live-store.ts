// Running, queued and recently finished executions, the warm pool and the pause switch.
import { create } from 'zustand';
import type { Events, FinishedExecution, LiveSnapshot, RunningExecution } from '../../shared/contract.js';
import type { ExecutionSummary, PoolState } from '../../shared/execution.js';
import { mergeEgress, EMPTY_EGRESS, type LiveEgress } from './egress-merge.js';

export const RECENT_LIMIT = 20;

interface LiveData {
  loaded: boolean;
  running: RunningExecution[];
  queued: ExecutionSummary[];
  recent: FinishedExecution[];
  pool: PoolState;
  paused: boolean;
  memoryLimitBytes: number | null;
  /** Proxied tool calls per execution seen while it ran. */
  toolCalls: Record<string, number>;
  /** Connections through the egress proxy per running execution (bounded, egress-merge.ts); a finished run's are in its result. */
  egress: Record<string, LiveEgress>;
}

interface LiveActions {
  snapshotLoaded(snapshot: LiveSnapshot): void;
  executionQueued(event: Events['execution.queued']): void;
  /** False when the execution was not known (a missed event): the caller fetches a snapshot. */
  executionStarted(event: Events['execution.started']): boolean;
  executionFinished(event: Events['execution.finished']): void;
  executionStats(event: Events['execution.stats']): void;
  executionToolCall(event: Events['execution.toolCall']): void;
  /** Ignored for an execution not running here: nothing is kept for a run this store will not clear. */
  executionEgress(event: Events['execution.egress']): void;
  /** False when the counts disagree with the lists here (a missed event): the caller fetches a snapshot. */
  liveChanged(event: Events['live.changed']): boolean;
  pausedSet(paused: boolean): void;
  reset(): void;
}

export type LiveState = LiveData & LiveActions;

const initial: LiveData = {
  loaded: false,
  running: [],
  queued: [],
  recent: [],
  pool: { size: 0, ready: 0, starting: 0, lastError: null, refilling: false },
  paused: false,
  memoryLimitBytes: null,
  toolCalls: {},
  egress: {},
};

export const useLiveStore = create<LiveState>()((set, get) => ({
  ...initial,
  snapshotLoaded: (s) =>
    set((state) => ({
      loaded: true,
      // A run that finished while events were missed keeps no connections here.
      egress: Object.fromEntries(Object.entries(state.egress).filter(([id]) => s.running.some((r) => r.id === id))),
      running: s.running,
      queued: s.queued,
      recent: s.recent.slice(0, RECENT_LIMIT),
      pool: s.pool,
      paused: s.paused,
      memoryLimitBytes: s.memoryLimitBytes,
    })),
  executionQueued: ({ execution }) =>
    set((state) =>
      state.queued.some((q) => q.id === execution.id) || state.running.some((r) => r.id === execution.id)
        ? {}
        : { queued: [...state.queued, execution] },
    ),
  executionStarted: ({ id, at, containerName }) => {
    const state = get();
    const running = state.running.find((r) => r.id === id);
    if (running) {
      set({ running: state.running.map((r) => (r.id === id ? { ...r, startedAt: at, containerName } : r)) });
      return true;
    }
    const queued = state.queued.find((q) => q.id === id);
    if (!queued) return false;
    set({
      queued: state.queued.filter((q) => q.id !== id),
      running: [...state.running, { ...queued, startedAt: at, containerName, memoryBytes: null }],
    });
    return true;
  },
  executionFinished: ({ result }) =>
    set((state) => {
      const toolCalls = { ...state.toolCalls };
      delete toolCalls[result.id];
      const egress = { ...state.egress };
      delete egress[result.id];
      return {
        running: state.running.filter((r) => r.id !== result.id),
        queued: state.queued.filter((q) => q.id !== result.id),
        recent: [result, ...state.recent.filter((r) => r.id !== result.id)].slice(0, RECENT_LIMIT),
        toolCalls,
        egress,
      };
    }),
  executionStats: ({ samples }) =>
    set((state) => {
      const byId = new Map(samples.map((s) => [s.id, s.memoryBytes]));
      return { running: state.running.map((r) => (byId.has(r.id) ? { ...r, memoryBytes: byId.get(r.id)! } : r)) };
    }),
  executionToolCall: ({ call }) =>
    set((state) => ({ toolCalls: { ...state.toolCalls, [call.executionId]: (state.toolCalls[call.executionId] ?? 0) + 1 } })),
  executionEgress: ({ id, record }) =>
    set((state) => (state.running.some((r) => r.id === id) ? { egress: { ...state.egress, [id]: mergeEgress(state.egress[id] ?? EMPTY_EGRESS, record) } } : {})),
  liveChanged: ({ paused, pool, running, queued }) => {
    set({ paused, pool });
    const state = get();
    return state.running.length === running && state.queued.length === queued;
  },
  pausedSet: (paused) => set({ paused }),
  reset: () => set({ ...initial }),
}));
