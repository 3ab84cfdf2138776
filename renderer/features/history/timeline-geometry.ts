// Where each proxied tool call sits on a run's time axis, as percentages of the run's span. Pure.
import type { HistoryToolCall } from '../../../shared/history.js';

export interface TimelineRun {
  queuedAt: number;
  startedAt: number | null;
  durationMs: number | null;
}

export interface TimelineBar {
  call: HistoryToolCall;
  /** Milliseconds from the run's start to the call's start (negative only with clock skew, then 0). */
  offsetMs: number;
  leftPct: number;
  widthPct: number;
}

export interface TimelineGeometry {
  /** Milliseconds the axis covers: the run, stretched to the last call's end if that is later. */
  spanMs: number;
  bars: TimelineBar[];
  ticks: { pct: number; ms: number }[];
}

/** The smallest bar, so a 0 ms call still shows. */
export const MIN_BAR_PCT = 0.6;

export function timelineGeometry(run: TimelineRun, calls: readonly HistoryToolCall[], tickCount = 4): TimelineGeometry {
  const origin = run.startedAt ?? (calls.length ? Math.min(...calls.map((c) => c.startedAt)) : run.queuedAt);
  let end = origin + Math.max(0, run.durationMs ?? 0);
  for (const c of calls) end = Math.max(end, c.startedAt + Math.max(0, c.durationMs));
  const spanMs = Math.max(1, end - origin);
  const bars = calls.map((call) => {
    const offsetMs = Math.max(0, call.startedAt - origin);
    const widthPct = Math.min(100, Math.max(MIN_BAR_PCT, (Math.max(0, call.durationMs) / spanMs) * 100));
    // A minimum-width bar at the very end would poke out of the track: pull it back in.
    const leftPct = Math.min((offsetMs / spanMs) * 100, 100 - widthPct);
    return { call, offsetMs, leftPct, widthPct };
  });
  const ticks = Array.from({ length: tickCount + 1 }, (_, i) => ({ pct: (i / tickCount) * 100, ms: (spanMs * i) / tickCount }));
  return { spanMs, bars, ticks };
}
