// The user's MCP servers as discovered and supervised, and the tool lists the panel asked for.
import { create } from 'zustand';
import type { Events, ServerView } from '../../shared/contract.js';
import type { ToolInfo } from '../../shared/proxy.js';

export type ToolsEntry = { state: 'loading' } | { state: 'loaded'; tools: ToolInfo[] } | { state: 'failed'; error: string };

interface ServersState {
  servers: ServerView[] | null;
  tools: Record<string, ToolsEntry>;
  serversLoaded(servers: ServerView[]): void;
  serverState(event: Events['server.state']): void;
  toolsLoading(name: string): void;
  toolsLoaded(name: string, tools: ToolInfo[]): void;
  toolsFailed(name: string, error: string): void;
  reset(): void;
}

export const useServersStore = create<ServersState>()((set) => ({
  servers: null,
  tools: {},
  serversLoaded: (servers) => set({ servers }),
  serverState: ({ servers }) => set({ servers }),
  toolsLoading: (name) => set((s) => ({ tools: { ...s.tools, [name]: { state: 'loading' } } })),
  toolsLoaded: (name, tools) => set((s) => ({ tools: { ...s.tools, [name]: { state: 'loaded', tools } } })),
  toolsFailed: (name, error) => set((s) => ({ tools: { ...s.tools, [name]: { state: 'failed', error } } })),
  reset: () => set({ servers: null, tools: {} }),
}));
