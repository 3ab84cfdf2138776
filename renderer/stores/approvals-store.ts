// Tool calls from code waiting for the person at the panel: the list the main process sends whole with
// every change (it is short), and the last outcome for a moment's feedback.
import { create } from 'zustand';
import type { ApprovalOutcome, PendingApproval } from '../../shared/approvals.js';

interface ApprovalsState {
  pending: PendingApproval[];
  last: ApprovalOutcome | null;
  approvalsLoaded(pending: PendingApproval[]): void;
  approvalsChanged(change: { pending: PendingApproval[]; last?: ApprovalOutcome }): void;
  /** Taken off the list at once when answered here; the next event confirms it. */
  answered(id: string): void;
  reset(): void;
}

export const useApprovalsStore = create<ApprovalsState>()((set) => ({
  pending: [],
  last: null,
  approvalsLoaded: (pending) => set({ pending }),
  approvalsChanged: ({ pending, last }) => set((s) => ({ pending, last: last ?? s.last })),
  answered: (id) => set((s) => ({ pending: s.pending.filter((p) => p.id !== id) })),
  reset: () => set({ pending: [], last: null }),
}));
