// The link to the main process as the header and the not-authorised screen show it.
import { create } from 'zustand';
import type { ConnectionStatus } from '../api/connection.js';

interface ConnectionState {
  status: ConnectionStatus;
  connectionChanged(status: ConnectionStatus): void;
  reset(): void;
}

export const useConnectionStore = create<ConnectionState>()((set) => ({
  status: 'connecting',
  connectionChanged: (status) => set({ status }),
  reset: () => set({ status: 'connecting' }),
}));
