// Toasts: short messages about what just happened (applied, copied, failed), dismissed after a while.
import { create } from 'zustand';

export type ToastTone = 'ok' | 'warn' | 'fail' | 'info';

export interface Toast {
  id: number;
  tone: ToastTone;
  message: string;
}

export const TOAST_LIMIT = 4;

interface UiState {
  toasts: Toast[];
  toastShown(tone: ToastTone, message: string): number;
  toastDismissed(id: number): void;
  reset(): void;
}

let nextId = 1;

export const useUiStore = create<UiState>()((set) => ({
  toasts: [],
  toastShown: (tone, message) => {
    const id = nextId++;
    // The same message twice in a row replaces the older one rather than stacking.
    set((s) => ({ toasts: [...s.toasts.filter((t) => t.message !== message), { id, tone, message }].slice(-TOAST_LIMIT) }));
    return id;
  },
  toastDismissed: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  reset: () => set({ toasts: [] }),
}));

/** Shorthand for actions outside React. */
export const toast = (tone: ToastTone, message: string): number => useUiStore.getState().toastShown(tone, message);
