// The History view's words and tones for how a recorded run ended (renderer/features/history/describe-exit.ts).
import { describe, expect, it } from 'vitest';
import { HISTORY_STATUSES } from '../../../../shared/history.js';
import { DEFAULT_LIMITS } from '../../../../shared/limits.js';
import { describeExit, statusLabel, statusTone } from '../../../../renderer/features/history/describe-exit.js';

const base = { exitCode: null, error: null, timeoutSec: 30, limits: DEFAULT_LIMITS };

describe('describeExit', () => {
  it('says how each kind of run ended', () => {
    expect(describeExit({ ...base, status: 'success', exitCode: 0 })).toBe('success');
    expect(describeExit({ ...base, status: 'error', exitCode: 1 })).toBe('error (exit 1)');
    expect(describeExit({ ...base, status: 'error', exitCode: null })).toBe('error');
    expect(describeExit({ ...base, status: 'timeout', timeoutSec: 30 })).toBe('timed out after 30s');
    expect(describeExit({ ...base, status: 'memory', exitCode: 137, limits: { ...DEFAULT_LIMITS, memory: '512m' } })).toBe('killed: memory limit 512m');
    expect(describeExit({ ...base, status: 'cancelled' })).toBe('cancelled');
    expect(describeExit({ ...base, status: 'output_limit', limits: { ...DEFAULT_LIMITS, outputCapBytes: 1024 ** 2 } })).toBe('stopped: output over 1 MiB');
    expect(describeExit({ ...base, status: 'runtime_error', error: 'podman: no such image\nmore' })).toBe('runtime error: podman: no such image');
    expect(describeExit({ ...base, status: 'interrupted' })).toMatch(/^interrupted/);
    expect(describeExit({ ...base, status: 'running' })).toBe('running');
  });

  it('uses the run’s own timeout and memory limit, and copes without them', () => {
    expect(describeExit({ ...base, status: 'timeout', timeoutSec: 5 })).toBe('timed out after 5s');
    expect(describeExit({ ...base, status: 'memory', limits: { ...DEFAULT_LIMITS, memory: '1g' } })).toBe('killed: memory limit 1g');
    expect(describeExit({ ...base, status: 'memory', limits: null })).toBe('killed: memory limit');
    expect(describeExit({ ...base, status: 'timeout', timeoutSec: null })).toBe('timed out');
  });

  it('every status has words and a tone', () => {
    for (const s of HISTORY_STATUSES) {
      expect(statusLabel(s)).toMatch(/\w/);
      expect(['ok', 'warn', 'fail', 'muted', 'accent']).toContain(statusTone(s));
    }
    expect(statusTone('success')).toBe('ok');
    expect(statusTone('memory')).toBe('fail');
    expect(statusLabel('timeout')).toBe('timed out');
  });
});
