// The Live view's words and colours for how a run ended (renderer/features/live/exit-reason.ts).
import { describe, expect, it } from 'vitest';
import { describeExit, exitTone } from '../../../../renderer/features/live/exit-reason.js';

const run = (exitReason: Parameters<typeof describeExit>[0]['exitReason'], extra: Partial<Parameters<typeof describeExit>[0]> = {}) => ({
  exitReason,
  exitCode: null,
  timeoutSec: 30,
  limits: { memory: '512m' },
  ...extra,
});

describe('describeExit', () => {
  it('says how each run ended in words', () => {
    expect(describeExit(run('success', { exitCode: 0 }))).toBe('success');
    expect(describeExit(run('error', { exitCode: 1 }))).toBe('error (exit 1)');
    expect(describeExit(run('error'))).toBe('error');
    expect(describeExit(run('timeout', { timeoutSec: 5 }))).toBe('timed out after 5s');
    expect(describeExit(run('memory', { exitCode: 137, limits: { memory: '1g' } }))).toBe('killed: memory limit 1g');
    expect(describeExit(run('cancelled'))).toBe('cancelled');
    expect(describeExit(run('output_limit'))).toBe('output limit reached');
    expect(describeExit(run('runtime_error', { message: 'podman exited with 125' }))).toBe('runtime error: podman exited with 125');
    expect(describeExit(run('runtime_error'))).toBe('runtime error');
  });

  it('colours success green, stops we asked for amber, failures red', () => {
    expect(exitTone('success')).toBe('ok');
    expect(exitTone('cancelled')).toBe('warn');
    expect(exitTone('output_limit')).toBe('warn');
    for (const r of ['error', 'timeout', 'memory', 'runtime_error'] as const) expect(exitTone(r)).toBe('fail');
  });
});
