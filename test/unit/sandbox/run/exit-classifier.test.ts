// How a run ended, as an exit reason and a sentence.
import { describe, expect, it } from 'vitest';
import { classifyExit, type EndFacts } from '../../../../electron/sandbox/run/exit-classifier.js';
import type { ProcessExit } from '../../../../electron/sandbox/run/attached-process.js';

const base = { timeoutSec: 30, memory: '512m', outputCapBytes: 1024 * 1024 };
const facts = (extra: Partial<EndFacts>): EndFacts => ({ ...base, ...extra });
const exited = (exitCode: number | null, signal: string | null = null): ProcessExit => ({ exitCode, signal });

describe('classifyExit', () => {
  it('exit frame 0 is success with no message', () => {
    expect(classifyExit(facts({ exitFrameCode: 0, processExit: exited(0) }))).toEqual({ exitReason: 'success', exitCode: 0 });
  });

  it('exit frame 3 is an error with the code in words', () => {
    expect(classifyExit(facts({ exitFrameCode: 3, processExit: exited(3) }))).toEqual({
      exitReason: 'error',
      exitCode: 3,
      message: 'Sandbox exited with code 3',
    });
  });

  it('the exit frame wins over the process status (the agent said goodbye)', () => {
    expect(classifyExit(facts({ exitFrameCode: 0, processExit: exited(137) }))).toEqual({ exitReason: 'success', exitCode: 0 });
    expect(classifyExit(facts({ exitFrameCode: 1, processExit: exited(137, 'SIGKILL') }))).toMatchObject({ exitReason: 'error', exitCode: 1 });
  });

  it('process 137 without an exit frame is a memory kill, said in words', () => {
    expect(classifyExit(facts({ processExit: exited(137) }))).toEqual({
      exitReason: 'memory',
      exitCode: 137,
      message: 'killed: memory limit 512m reached',
    });
  });

  it('a SIGKILL signal without an exit frame is a memory kill with the configured limit', () => {
    expect(classifyExit(facts({ processExit: exited(null, 'SIGKILL'), memory: '1g' }))).toEqual({
      exitReason: 'memory',
      exitCode: 137,
      message: 'killed: memory limit 1g reached',
    });
  });

  it('process 0 without an exit frame is success', () => {
    expect(classifyExit(facts({ processExit: exited(0) }))).toEqual({ exitReason: 'success', exitCode: 0 });
  });

  it('another process code without an exit frame is an error', () => {
    expect(classifyExit(facts({ processExit: exited(125) }))).toEqual({
      exitReason: 'error',
      exitCode: 125,
      message: 'Sandbox exited with code 125',
    });
  });

  it('host timeout takes precedence over exit codes', () => {
    for (const extra of [{}, { exitFrameCode: 0 }, { processExit: exited(137) }, { exitFrameCode: 2, processExit: exited(2) }]) {
      const r = classifyExit(facts({ ...extra, hostStop: { reason: 'timeout' }, timeoutSec: 5 }));
      expect(r.exitReason).toBe('timeout');
      expect(r.message).toBe('Execution timed out after 5s');
    }
  });

  it('a timeout keeps the exit code it saw (frame first, then process)', () => {
    expect(classifyExit(facts({ hostStop: { reason: 'timeout' }, processExit: exited(137) })).exitCode).toBe(137);
    expect(classifyExit(facts({ hostStop: { reason: 'timeout' }, exitFrameCode: 0, processExit: exited(137) })).exitCode).toBe(0);
    expect(classifyExit(facts({ hostStop: { reason: 'timeout' } })).exitCode).toBeNull();
  });

  it('cancellation takes precedence over exit codes', () => {
    expect(classifyExit(facts({ hostStop: { reason: 'cancelled' }, exitFrameCode: 0, processExit: exited(0) }))).toEqual({
      exitReason: 'cancelled',
      exitCode: 0,
      message: 'Execution cancelled',
    });
    expect(classifyExit(facts({ hostStop: { reason: 'cancelled' }, processExit: exited(137) }))).toMatchObject({
      exitReason: 'cancelled',
      message: 'Execution cancelled',
    });
  });

  it('output limit takes precedence over exit codes and names the stream and cap', () => {
    expect(classifyExit(facts({ hostStop: { reason: 'output_limit', stream: 'stdout' }, processExit: exited(137) }))).toEqual({
      exitReason: 'output_limit',
      exitCode: 137,
      message: 'Output limit reached: stdout exceeded 1 MiB, so the run was stopped',
    });
    expect(
      classifyExit(facts({ hostStop: { reason: 'output_limit', stream: 'stderr' }, outputCapBytes: 64 * 1024, exitFrameCode: 0 })).message,
    ).toBe('Output limit reached: stderr exceeded 64 KiB, so the run was stopped');
  });

  it('a spawn error is a runtime error with its message', () => {
    expect(classifyExit(facts({ processExit: { exitCode: null, signal: null, spawnError: 'spawn podman ENOENT' } }))).toEqual({
      exitReason: 'runtime_error',
      exitCode: null,
      message: 'The container runtime failed: spawn podman ENOENT',
    });
  });

  it('a spawn error is a runtime error even with a non-null code', () => {
    expect(classifyExit(facts({ processExit: { exitCode: 137, signal: 'SIGKILL', spawnError: 'boom' } })).exitReason).toBe('runtime_error');
  });

  it('no exit status at all is a runtime error', () => {
    expect(classifyExit(facts({}))).toEqual({
      exitReason: 'runtime_error',
      exitCode: null,
      message: 'The container runtime failed: no exit status',
    });
  });

  it('names a crash the relay saw, in words, keeping the exit code', () => {
    expect(classifyExit(facts({ exitFrameCode: 139, abrupt: 'SIGSEGV', processExit: exited(139) }))).toEqual({
      exitReason: 'error',
      exitCode: 139,
      message: 'Sandbox exited with code 139: the Python process crashed with a segmentation fault (SIGSEGV); what it printed before is kept',
    });
    expect(classifyExit(facts({ exitFrameCode: 134, abrupt: 'SIGABRT' })).message).toMatch(/^Sandbox exited with code 134: the Python process aborted .*\(SIGABRT\)/);
    expect(classifyExit(facts({ exitFrameCode: 143, abrupt: 'SIGTERM' })).message).toContain('was killed by SIGTERM (SIGTERM)');
    expect(classifyExit(facts({ exitFrameCode: 3, abrupt: 'exit' })).message).toBe(
      'Sandbox exited with code 3: the process ended at once (os._exit() or native code), before Python finished the run; what it printed before is kept',
    );
    expect(classifyExit(facts({ exitFrameCode: 0, abrupt: 'exit' }))).toEqual({ exitReason: 'success', exitCode: 0 });
  });

  it('a SIGKILL nobody on the host sent is the memory limit, as seen by the relay too', () => {
    expect(classifyExit(facts({ exitFrameCode: 137, abrupt: 'SIGKILL' }))).toEqual({ exitReason: 'memory', exitCode: 137, message: 'killed: memory limit 512m reached' });
  });

  it('a run the sandbox stopped for printing on past 16 × the cap is output_limit, saying what was kept', () => {
    expect(classifyExit(facts({ exitFrameCode: 137, stoppedStream: 'stdout' }))).toEqual({
      exitReason: 'output_limit',
      exitCode: 137,
      message: 'Output limit reached: stdout went on past 16 MiB (16 × the 1 MiB cap), so the run was stopped; its first 1 MiB is kept',
    });
  });

  it('protocol abuse says so in words, with the bound that was passed', () => {
    const end = classifyExit(facts({ hostStop: { reason: 'protocol_abuse', what: 'it sent too many frames' }, processExit: exited(137) }));
    expect(end.exitReason).toBe('protocol_abuse');
    expect(end.message).toMatch(/^Protocol abuse: it sent too many frames\. .*the run was stopped$/);
  });
});
