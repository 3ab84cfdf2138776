// The settings as the main process holds them, with defaults and the fields locked by env or flags.
import { create } from 'zustand';
import type { Events, SettingsView } from '../../shared/contract.js';

interface SettingsState {
  view: SettingsView | null;
  /** Dotted paths of the last change (from any panel, the tray or the settings file). */
  lastChanged: string[];
  settingsLoaded(view: SettingsView): void;
  /** False when there was no view to update (the caller fetches one). */
  settingsChanged(change: Events['settings.changed']): boolean;
  reset(): void;
}

export const useSettingsStore = create<SettingsState>()((set, get) => ({
  view: null,
  lastChanged: [],
  settingsLoaded: (view) => set({ view }),
  settingsChanged: ({ settings, changed }) => {
    const view = get().view;
    if (!view) return false;
    set({ view: { ...view, settings }, lastChanged: changed });
    return true;
  },
  reset: () => set({ view: null, lastChanged: [] }),
}));
