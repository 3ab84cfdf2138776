// The MCP clients found on this machine and whether each is set up to use Sandbar.
import { create } from 'zustand';
import type { ClientView } from '../../shared/contract.js';

interface ClientsState {
  clients: ClientView[] | null;
  detecting: boolean;
  error: string | null;
  detectStarted(): void;
  clientsDetected(clients: ClientView[]): void;
  detectFailed(error: string): void;
  reset(): void;
}

export const useClientsStore = create<ClientsState>()((set) => ({
  clients: null,
  detecting: false,
  error: null,
  detectStarted: () => set({ detecting: true, error: null }),
  clientsDetected: (clients) => set({ clients, detecting: false, error: null }),
  detectFailed: (error) => set({ detecting: false, error }),
  reset: () => set({ clients: null, detecting: false, error: null }),
}));
