// Sizes, byte formatting, timeout clamping and the limits schema.
import { describe, expect, it } from 'vitest';
import { clampTimeout, DEFAULT_LIMITS, formatBytes, LimitsSchema, parseSize } from '../../../shared/limits.js';

describe('parseSize', () => {
  it('reads runtime size notation', () => {
    expect(parseSize('100')).toBe(100);
    expect(parseSize('100b')).toBe(100);
    expect(parseSize('1k')).toBe(1024);
    expect(parseSize('512m')).toBe(512 * 1024 ** 2);
    expect(parseSize('1g')).toBe(1024 ** 3);
    expect(parseSize('1.5k')).toBe(1536);
    expect(parseSize('0.5g')).toBe(512 * 1024 ** 2);
  });

  it('is case-insensitive and trims', () => {
    expect(parseSize(' 2G ')).toBe(2 * 1024 ** 3);
    expect(parseSize('64M')).toBe(64 * 1024 ** 2);
  });

  it('rounds fractional bytes down', () => {
    expect(parseSize('1.7')).toBe(1);
    expect(parseSize('0.001k')).toBe(1);
  });

  it.each(['lots', '', 'm', '-1m', '1t', '1mb', '1 m', '1e3', '.5m', '1..5m'])('refuses %j', (s) => {
    expect(() => parseSize(s)).toThrow(/not a size/);
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [64 * 1024, '64 KiB'],
    [1024 ** 2, '1 MiB'],
    [1.25 * 1024 ** 2, '1.3 MiB'],
    [512 * 1024 ** 2, '512 MiB'],
    [1024 ** 3, '1 GiB'],
    [2 * 1024 ** 3, '2 GiB'],
    [1.5 * 1024 ** 3, '1536 MiB'],
  ])('formats %d as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('clampTimeout', () => {
  it('uses the default when none is requested', () => {
    expect(clampTimeout(DEFAULT_LIMITS, undefined)).toBe(30);
    expect(clampTimeout({ ...DEFAULT_LIMITS, timeoutSec: 7 }, undefined)).toBe(7);
  });

  it('keeps a value in range', () => {
    expect(clampTimeout(DEFAULT_LIMITS, 1)).toBe(1);
    expect(clampTimeout(DEFAULT_LIMITS, 60)).toBe(60);
    expect(clampTimeout(DEFAULT_LIMITS, 120)).toBe(120);
  });

  it('clamps to [1, maxTimeoutSec]', () => {
    expect(clampTimeout(DEFAULT_LIMITS, 0)).toBe(1);
    expect(clampTimeout(DEFAULT_LIMITS, -10)).toBe(1);
    expect(clampTimeout(DEFAULT_LIMITS, 121)).toBe(120);
    expect(clampTimeout(DEFAULT_LIMITS, 10_000)).toBe(120);
    expect(clampTimeout({ ...DEFAULT_LIMITS, maxTimeoutSec: 10 }, 30)).toBe(10);
  });

  it('drops fractions', () => {
    expect(clampTimeout(DEFAULT_LIMITS, 2.9)).toBe(2);
    expect(clampTimeout(DEFAULT_LIMITS, 0.5)).toBe(1);
  });
});

describe('LimitsSchema', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_LIMITS).toEqual({
      memory: '512m',
      pids: 128,
      cpus: null,
      timeoutSec: 30,
      maxTimeoutSec: 120,
      outputCapBytes: 1024 ** 2,
      tmpSize: '64m',
      workspaceSize: '128m',
      user: '65534:65534',
    });
  });

  it('accepts good values and normalises sizes', () => {
    const l = LimitsSchema.parse({ memory: ' 1G ', pids: 16, cpus: 0.1, tmpSize: '1m', workspaceSize: '2g', user: '1000', timeoutSec: 60, maxTimeoutSec: 60 });
    expect(l).toMatchObject({ memory: '1g', pids: 16, cpus: 0.1, tmpSize: '1m', workspaceSize: '2g', user: '1000', timeoutSec: 60 });
    expect(LimitsSchema.parse({ memory: '32m' }).memory).toBe('32m');
  });

  it.each([
    ['memory not a size', { memory: 'lots' }],
    ['memory below 32m', { memory: '31m' }],
    ['memory a number', { memory: 512 }],
    ['pids below 16', { pids: 15 }],
    ['pids fractional', { pids: 20.5 }],
    ['pids above 65536', { pids: 65_537 }],
    ['cpus zero', { cpus: 0 }],
    ['cpus above 256', { cpus: 257 }],
    ['timeout zero', { timeoutSec: 0 }],
    ['timeout fractional', { timeoutSec: 1.5 }],
    ['max timeout above an hour', { maxTimeoutSec: 3601 }],
    ['default timeout above max', { timeoutSec: 200, maxTimeoutSec: 100 }],
    ['output cap below 1 KiB', { outputCapBytes: 1000 }],
    ['output cap above 256 MiB', { outputCapBytes: 256 * 1024 ** 2 + 1 }],
    ['tmp size zero', { tmpSize: '0' }],
    ['workspace size below 1m', { workspaceSize: '512k' }],
    ['user root', { user: '0' }],
    ['user root with group', { user: '0:0' }],
    ['user root with another group', { user: '0:1000' }],
    ['user by name', { user: 'root' }],
    ['user by name nobody', { user: 'nobody' }],
    ['user negative', { user: '-1' }],
    ['user with a space', { user: '1000 ' }],
  ])('refuses %s', (_what, input) => {
    expect(LimitsSchema.safeParse(input).success).toBe(false);
  });

  it('says why the default timeout is refused, on timeoutSec', () => {
    const r = LimitsSchema.safeParse({ timeoutSec: 200, maxTimeoutSec: 100 });
    expect(r.success).toBe(false);
    if (!r.success) {
      expect(r.error.issues[0]?.path).toEqual(['timeoutSec']);
      expect(r.error.issues[0]?.message).toContain('cannot exceed the maximum');
    }
  });

  it('says a malformed size must be a size', () => {
    const r = LimitsSchema.safeParse({ memory: 'lots' });
    expect(r.success).toBe(false);
    if (!r.success) {
      expect(r.error.issues[0]?.path).toEqual(['memory']);
      expect(r.error.issues[0]?.message).toBe('must be a size such as 512m or 1g');
    }
  });

  it('says the sandbox never runs as root', () => {
    const r = LimitsSchema.safeParse({ user: '0' });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues[0]?.message).toBe('the sandbox never runs as root (uid or gid 0)');
  });

  // zod 4 runs `.refine` even after the regex failed; a malformed size must be refused, not thrown.
  it('refuses (without throwing) sizes that are not sizes', () => {
    for (const input of [{ memory: 'lots' }, { tmpSize: '1t' }, { workspaceSize: '1mb' }, { memory: '' }]) {
      expect(LimitsSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
    }
  });

  // BUG (limits.ts, `user` refine): /^0(:|$)/ only catches a literal "0", so "00", "00:00" or "000:65534"
  // pass, and the runtimes read them as uid 0 (verified: `podman run --user 00:00` gives uid 0, gid 0).
  // Remove `.fails` once leading zeros are refused or normalised.
  it('refuses root written with leading zeros', () => {
    for (const user of ['00', '00:00', '000:65534']) {
      expect(LimitsSchema.safeParse({ user }).success, user).toBe(false);
    }
  });
});
