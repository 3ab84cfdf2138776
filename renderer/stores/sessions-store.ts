// Live sessions as the main process reports them: the whole list arrives with every change (it is short,
// capped by `maxSessions`), so the store keeps no rule of its own about when a session ends.
import { create } from 'zustand';
import type { SessionInfo } from '../../shared/sessions.js';

interface SessionsState {
  sessions: SessionInfo[];
  sessionsLoaded(sessions: SessionInfo[]): void;
  sessionsChanged(change: { sessions: SessionInfo[] }): void;
  /** Taken off the list at once when ended here; the next event confirms it. */
  sessionEnded(id: string): void;
  reset(): void;
}

export const useSessionsStore = create<SessionsState>()((set) => ({
  sessions: [],
  sessionsLoaded: (sessions) => set({ sessions }),
  sessionsChanged: ({ sessions }) => set({ sessions }),
  sessionEnded: (id) => set((s) => ({ sessions: s.sessions.filter((x) => x.id !== id) })),
  reset: () => set({ sessions: [] }),
}));
