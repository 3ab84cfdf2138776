// The panel's formatting helpers (renderer/lib/format.ts): durations, elapsed times and code previews.
import { describe, expect, it } from 'vitest';
import { clientLabel, firstLine, formatDuration, formatSeconds } from '../../../../renderer/lib/format.js';

describe('format', () => {
  it('writes durations people read at a glance', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_345)).toMatch(/^12[.,]3 s$/);
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(3_840_000)).toBe('1 h 4 min');
    expect(formatDuration(-1)).toBe('—');
  });

  it('keeps elapsed seconds at one decimal so the width does not jump', () => {
    expect(formatSeconds(0)).toBe('0.0 s');
    expect(formatSeconds(12_340)).toBe('12.3 s');
    expect(formatSeconds(-5)).toBe('0.0 s');
  });

  it('previews the first non-blank line of code', () => {
    expect(firstLine('\n\n  import os\nprint(1)')).toBe('  import os');
    expect(firstLine('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('labels clients with their version when they gave one', () => {
    expect(clientLabel({ name: 'cursor', version: '1.2' })).toBe('cursor 1.2');
    expect(clientLabel({ name: 'cli' })).toBe('cli');
    expect(clientLabel(undefined)).toBe('unknown client');
  });
});
