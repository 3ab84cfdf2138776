// The health report, whether a probe is running, and the progress of an image pull.
import { create } from 'zustand';
import type { ImagePullProgress } from '../../shared/contract.js';
import type { HealthReport } from '../../shared/health.js';

interface HealthState {
  loaded: boolean;
  report: HealthReport | null;
  probing: boolean;
  probeError: string | null;
  pull: ImagePullProgress | null;
  healthLoaded(report: HealthReport | null): void;
  healthChanged(report: HealthReport): void;
  probeStarted(): void;
  probeFinished(report: HealthReport | null, error?: string): void;
  imagePullProgress(progress: ImagePullProgress): void;
  reset(): void;
}

const initial = { loaded: false, report: null, probing: false, probeError: null, pull: null };

export const useHealthStore = create<HealthState>()((set) => ({
  ...initial,
  healthLoaded: (report) => set({ loaded: true, report }),
  healthChanged: (report) => set({ loaded: true, report }),
  probeStarted: () => set({ probing: true, probeError: null }),
  probeFinished: (report, error) => set((state) => ({ probing: false, probeError: error ?? null, report: report ?? state.report, loaded: true })),
  imagePullProgress: (pull) => set({ pull }),
  reset: () => set({ ...initial }),
}));
