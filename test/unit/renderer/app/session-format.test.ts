// How the panel names sessions and counts their time down (renderer/lib/session-format.ts).
import { describe, expect, it } from 'vitest';
import { callCount, formatCountdown, secondsLeft, sessionCallLabel, shortSessionId } from '../../../../renderer/lib/session-format.js';

const ID = '3f2a9c0d7be14e21a6c85f09d3b7e412';

describe('session format', () => {
  it('names a session by its first 8 hex digits, and a call by its number in it', () => {
    expect(shortSessionId(ID)).toBe('3f2a9c0d');
    expect(sessionCallLabel({ id: ID, call: 2 })).toBe('session 3f2a9c0d · call 2');
  });

  it('counts seconds left up, never below zero', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 50_000)).toBe(0);
  });

  it('writes a countdown as a clock', () => {
    expect(formatCountdown(600)).toBe('10:00');
    expect(formatCountdown(545)).toBe('9:05');
    expect(formatCountdown(42)).toBe('0:42');
    expect(formatCountdown(3600)).toBe('1:00:00');
    expect(formatCountdown(3_725.9)).toBe('1:02:05');
    expect(formatCountdown(-3)).toBe('0:00');
  });

  it('counts calls in words', () => {
    expect(callCount(1)).toBe('1 call');
    expect(callCount(0)).toBe('0 calls');
    expect(callCount(12)).toBe('12 calls');
  });
});
