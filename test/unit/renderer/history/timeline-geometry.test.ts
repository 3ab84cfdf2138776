// Where the History detail's timeline draws each tool call (renderer/features/history/timeline-geometry.ts).
import { describe, expect, it } from 'vitest';
import type { HistoryToolCall } from '../../../../shared/history.js';
import { MIN_BAR_PCT, timelineGeometry } from '../../../../renderer/features/history/timeline-geometry.js';

const call = (startedAt: number, durationMs: number, over: Partial<HistoryToolCall> = {}): HistoryToolCall => ({
  server: 'github',
  tool: 'search',
  startedAt,
  durationMs,
  isError: false,
  bytesIn: 10,
  bytesOut: 20,
  error: null,
  ...over,
});

describe('timelineGeometry', () => {
  it('places each call by its start and length relative to the run’s start', () => {
    const g = timelineGeometry({ queuedAt: 900, startedAt: 1000, durationMs: 1000 }, [call(1000, 100), call(1500, 250)]);
    expect(g.spanMs).toBe(1000);
    expect(g.bars.map((b) => [b.offsetMs, b.leftPct, b.widthPct])).toEqual([
      [0, 0, 10],
      [500, 50, 25],
    ]);
    expect(g.ticks.map((t) => t.ms)).toEqual([0, 250, 500, 750, 1000]);
    expect(g.ticks.at(-1)!.pct).toBe(100);
  });

  it('stretches the axis to a call that ends after the run', () => {
    const g = timelineGeometry({ queuedAt: 0, startedAt: 0, durationMs: 100 }, [call(50, 150)]);
    expect(g.spanMs).toBe(200);
    expect(g.bars[0]).toMatchObject({ leftPct: 25, widthPct: 75 });
  });

  it('gives a 0 ms call a visible bar that stays inside the track', () => {
    const g = timelineGeometry({ queuedAt: 0, startedAt: 0, durationMs: 1000 }, [call(0, 0), call(1000, 0)]);
    expect(g.bars[0]!.widthPct).toBe(MIN_BAR_PCT);
    expect(g.bars[1]!.leftPct + g.bars[1]!.widthPct).toBeLessThanOrEqual(100);
    expect(g.bars[1]!.leftPct).toBeCloseTo(100 - MIN_BAR_PCT);
  });

  it('clamps a call stamped before the run’s start (clock skew) to the start', () => {
    const g = timelineGeometry({ queuedAt: 0, startedAt: 1000, durationMs: 1000 }, [call(990, 100)]);
    expect(g.bars[0]!.offsetMs).toBe(0);
    expect(g.bars[0]!.leftPct).toBe(0);
  });

  it('uses the first call as the origin when the run never recorded a start, and never divides by zero', () => {
    const g = timelineGeometry({ queuedAt: 0, startedAt: null, durationMs: null }, [call(500, 0)]);
    expect(g.spanMs).toBe(1);
    expect(Number.isFinite(g.bars[0]!.leftPct)).toBe(true);
    expect(timelineGeometry({ queuedAt: 0, startedAt: null, durationMs: null }, []).bars).toEqual([]);
  });
});
