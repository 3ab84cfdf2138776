// Progress notifications for one request must strictly increase (MCP spec), even when the run is queued
// and started in the same instant, or the clock steps back.
import { describe, expect, it } from 'vitest';
import { progressValues } from '../../../electron/mcp/run-python-handler.js';

describe('progressValues', () => {
  it('passes increasing values through and lifts any value not above the last', () => {
    const next = progressValues();
    const out = [0, 0, 0.5, 0.2, 1, 1].map(next);
    expect(out[0]).toBe(0);
    expect(out[2]).toBe(0.5);
    expect(out[4]).toBe(1);
    for (let i = 1; i < out.length; i++) expect(out[i]!).toBeGreaterThan(out[i - 1]!);
  });
});
