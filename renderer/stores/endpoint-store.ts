// Where MCP clients reach Sandbar (URL, port, listening or why not).
import { create } from 'zustand';
import type { EndpointInfo } from '../../shared/contract.js';

interface EndpointState {
  info: EndpointInfo | null;
  endpointChanged(info: EndpointInfo): void;
  reset(): void;
}

export const useEndpointStore = create<EndpointState>()((set) => ({
  info: null,
  endpointChanged: (info) => set({ info }),
  reset: () => set({ info: null }),
}));
