// The reference bridge's result shape (REFERENCE §1.4 worked examples), with Sandbar's [fix]es.
import { describe, expect, it } from 'vitest';
import { compactStructured, compactText, outputLines, payloadFromResult } from '../../../electron/mcp/result-format.js';
import type { ExecutionResult } from '../../../shared/execution.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';

function result(extra: Partial<ExecutionResult>): ExecutionResult {
  return {
    id: 'exec-1',
    exitReason: 'success',
    exitCode: 0,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    timeoutSec: 30,
    limits: DEFAULT_LIMITS,
    queuedAt: 1_000,
    startedAt: 1_010,
    finishedAt: 1_130,
    durationMs: 120,
    ...extra,
  };
}

function render(r: ExecutionResult, servers: string[] = []) {
  const payload = payloadFromResult(r, servers);
  return { payload, text: compactText(payload), structured: compactStructured(payload) };
}

const TRACEBACK = 'Traceback (most recent call last):\n  File "<sandbox>", line 2, in <module>\nValueError: boom\n';

describe('outputLines', () => {
  it('splits on newlines and drops only the final empty tail', () => {
    expect(outputLines('')).toEqual([]);
    expect(outputLines('a')).toEqual(['a']);
    expect(outputLines('a\n')).toEqual(['a']);
    expect(outputLines('a\nb\n')).toEqual(['a', 'b']);
    expect(outputLines('a\r\nb\r\n')).toEqual(['a', 'b']);
  });

  it('[fix] keeps blank and whitespace-only lines', () => {
    expect(outputLines('hi\n\n   \nx\n')).toEqual(['hi', '', '   ', 'x']);
    expect(outputLines('\n')).toEqual(['']);
    expect(outputLines('  indented  \n')).toEqual(['  indented  ']);
  });
});

describe('compact results (REFERENCE §1.4 worked examples)', () => {
  it('print(1)', () => {
    const { payload, text, structured } = render(result({ stdout: '1\n' }));
    expect(payload).toMatchObject({ status: 'success', summary: 'Success', exitCode: 0, stdout: ['1'] });
    expect(text).toBe('1');
    expect(structured).toEqual({ stdout: ['1'], exitReason: 'success', durationMs: 120 });
    expect(structured).not.toHaveProperty('status');
    expect(structured).not.toHaveProperty('summary');
    expect(structured).not.toHaveProperty('exitCode');
  });

  it('pass (no output)', () => {
    const { payload, text, structured } = render(result({}));
    expect(payload.summary).toBe('Success (no output)');
    expect(payload).not.toHaveProperty('stdout');
    expect(payload).not.toHaveProperty('stderr');
    expect(text).toBe('Success (no output)');
    expect(structured).toEqual({ summary: 'Success (no output)', exitReason: 'success', durationMs: 120 });
  });

  it('only stderr', () => {
    const { text, structured } = render(result({ stderr: 'only err\n' }));
    expect(text).toBe('stderr:\nonly err');
    expect(structured).toEqual({ stderr: ['only err'], summary: 'Success', exitReason: 'success', durationMs: 120 });
  });

  it('stdout and stderr together', () => {
    const { text, structured } = render(result({ stdout: 'a\nb\n', stderr: 'warn\n' }));
    expect(text).toBe('a\nb\nstderr:\nwarn');
    expect(structured).toEqual({ stdout: ['a', 'b'], stderr: ['warn'], exitReason: 'success', durationMs: 120 });
  });

  it('partial output then an exception', () => {
    const { payload, text, structured } = render(
      result({ exitReason: 'error', exitCode: 1, message: 'Sandbox exited with code 1', stdout: 'partial\n', stderr: TRACEBACK }),
    );
    expect(payload.status).toBe('error');
    expect(payload).not.toHaveProperty('exitCode');
    expect(text.startsWith('status: error\npartial\nstderr:\n')).toBe(true);
    expect(text).toBe(`status: error\npartial\nstderr:\n${TRACEBACK.trimEnd()}`);
    // The error line is not repeated for status error.
    expect(text).not.toContain('error: Sandbox exited');
    expect(structured).toEqual({
      status: 'error',
      stdout: ['partial'],
      stderr: ['Traceback (most recent call last):', '  File "<sandbox>", line 2, in <module>', 'ValueError: boom'],
      error: 'Sandbox exited with code 1',
      summary: 'Sandbox error: Sandbox exited with code 1',
      exitReason: 'error',
      durationMs: 120,
    });
  });

  it('sys.exit(2) with no output', () => {
    const { text, structured } = render(result({ exitReason: 'error', exitCode: 2, message: 'Sandbox exited with code 2' }));
    expect(text).toBe('status: error\nSandbox error: Sandbox exited with code 2');
    expect(structured).toEqual({
      status: 'error',
      error: 'Sandbox exited with code 2',
      summary: 'Sandbox error: Sandbox exited with code 2',
      exitReason: 'error',
      durationMs: 120,
    });
    expect(structured).not.toHaveProperty('exitCode');
  });

  it('timeout after printing start', () => {
    const { text, structured } = render(
      result({ exitReason: 'timeout', exitCode: 137, timeoutSec: 2, message: 'Execution timed out after 2s', stdout: 'start\n', durationMs: 2003 }),
    );
    expect(text).toBe('status: timeout\nstart\nerror: Execution timed out after 2s');
    expect(structured).toEqual({
      status: 'timeout',
      stdout: ['start'],
      timeoutSeconds: 2,
      error: 'Execution timed out after 2s',
      summary: 'Timeout: execution exceeded 2s',
      exitReason: 'timeout',
      durationMs: 2003,
    });
  });

  it('timeout without output', () => {
    const { text, structured } = render(result({ exitReason: 'timeout', exitCode: null, timeoutSec: 1, message: 'Execution timed out after 1s' }));
    expect(text).toBe('status: timeout\nTimeout: execution exceeded 1s\nerror: Execution timed out after 1s');
    expect(structured).toEqual({
      status: 'timeout',
      timeoutSeconds: 1,
      error: 'Execution timed out after 1s',
      summary: 'Timeout: execution exceeded 1s',
      exitReason: 'timeout',
      durationMs: 120,
    });
  });

  it('[beyond] a memory kill is said in words, not as a bare 137', () => {
    const { payload, text, structured } = render(
      result({ exitReason: 'memory', exitCode: 137, message: 'killed: memory limit 512m reached', stdout: 'allocating\n' }),
    );
    expect(payload.status).toBe('error');
    // Whether the text should also carry the sentence when there is output is an open question (see report);
    // what is certain is the status line and the kept output.
    expect(text.startsWith('status: error\nallocating')).toBe(true);
    expect(structured).toMatchObject({
      status: 'error',
      error: 'killed: memory limit 512m reached',
      summary: 'Sandbox error: killed: memory limit 512m reached',
      exitReason: 'memory',
    });
    expect(JSON.stringify(structured)).not.toContain('137');
  });

  it('[beyond] a memory kill without output shows the sentence in the text', () => {
    const { text } = render(result({ exitReason: 'memory', exitCode: 137, message: 'killed: memory limit 512m reached' }));
    expect(text).toBe('status: error\nSandbox error: killed: memory limit 512m reached');
  });

  it('[fix] blank lines are kept in structured output', () => {
    const { text, structured } = render(result({ stdout: 'hi\n\n   \nx\n' }));
    expect(structured.stdout).toEqual(['hi', '', '   ', 'x']);
    expect(text).toBe('hi\n\n   \nx');
  });

  it('echoes the requested servers', () => {
    const { payload, structured } = render(result({ stdout: 'ok\n' }), ['github', 'fs']);
    expect(payload.servers).toEqual(['github', 'fs']);
    expect(structured.servers).toEqual(['github', 'fs']);
    expect(render(result({}), []).structured).not.toHaveProperty('servers');
  });

  it('a cancelled run is an error with its message', () => {
    const { text, structured } = render(result({ exitReason: 'cancelled', exitCode: null, message: 'Execution cancelled' }));
    expect(text).toBe('status: error\nSandbox error: Execution cancelled');
    expect(structured).toMatchObject({ status: 'error', error: 'Execution cancelled', exitReason: 'cancelled' });
  });

  it('an output-limit stop keeps the output and says why', () => {
    const msg = 'Output limit reached: stdout exceeded 1 MiB, so the run was stopped';
    const { payload, structured } = render(result({ exitReason: 'output_limit', exitCode: 137, message: msg, stdout: 'x\n', stdoutTruncated: true }));
    expect(payload.summary).toBe(`Sandbox error: ${msg}`);
    expect(structured).toMatchObject({ status: 'error', stdout: ['x'], error: msg, exitReason: 'output_limit' });
  });

  it('a runtime error without a message falls back to the exit reason', () => {
    const { payload } = render(result({ exitReason: 'runtime_error', exitCode: null }));
    expect(payload.error).toBe('runtime_error');
    expect(payload.summary).toBe('Sandbox error: runtime_error');
  });

  it('always carries exitReason and durationMs, including a zero duration', () => {
    for (const r of [
      result({ stdout: '1\n' }),
      result({}),
      result({ exitReason: 'error', exitCode: 1, message: 'Sandbox exited with code 1' }),
      result({ exitReason: 'timeout', message: 'Execution timed out after 30s' }),
      result({ exitReason: 'runtime_error', exitCode: null, message: 'no runtime', startedAt: null, durationMs: 0 }),
    ]) {
      const { payload, structured } = render(r);
      expect(payload.exitReason).toBe(r.exitReason);
      expect(payload.durationMs).toBe(r.durationMs);
      expect(structured.exitReason).toBe(r.exitReason);
      expect(structured.durationMs).toBe(r.durationMs);
    }
  });

  it('the full payload keeps the reference key order', () => {
    const payload = payloadFromResult(
      result({ exitReason: 'timeout', message: 'Execution timed out after 2s', timeoutSec: 2, stdout: 'a\n', stderr: 'b\n' }),
      ['s'],
    );
    expect(Object.keys(payload)).toEqual(['status', 'summary', 'servers', 'stdout', 'stderr', 'error', 'timeoutSeconds', 'exitReason', 'durationMs']);
    expect(Object.keys(payloadFromResult(result({ stdout: 'a\n' })))).toEqual(['status', 'summary', 'exitCode', 'stdout', 'exitReason', 'durationMs']);
  });
});

describe('[fix] the agent gets what the code printed', () => {
  it("keeps the first line's leading whitespace exactly (a pandas header keeps its alignment), and the last line's end", () => {
    const table = '   a  b\n0  1  2\n1  3  4  \n';
    expect(render(result({ stdout: table })).text).toBe('   a  b\n0  1  2\n1  3  4  ');
    expect(render(result({ stdout: '\tindented\n' })).text).toBe('\tindented');
    expect(render(result({ stderr: '  warn\n' })).text).toBe('stderr:\n  warn');
    expect(render(result({ exitReason: 'error', exitCode: 1, message: 'Sandbox exited with code 1', stdout: '  x\n' })).text).toBe('status: error\n  x');
  });

  it('a result with only blank output still says something', () => {
    expect(render(result({ stdout: '\n\n' })).text).toBe('success');
  });

  it('says how a crash ended the run in the text, since no traceback explains it', () => {
    const message = 'Sandbox exited with code 139: the Python process crashed with a segmentation fault (SIGSEGV); what it printed before is kept';
    const { text, structured } = render(result({ exitReason: 'error', exitCode: 139, message, stdout: 'before\n' }));
    expect(text).toBe(`status: error\nbefore\nerror: ${message}`);
    expect(structured).toMatchObject({ status: 'error', error: message, summary: `Sandbox error: ${message}`, exitReason: 'error' });
  });

  it('says protocol abuse in words', () => {
    const message = 'Protocol abuse: it sent a host call past the in-flight budget (at most 16 calls and 8 MiB waiting). The sandbox agent never does that';
    const { text, structured } = render(result({ exitReason: 'protocol_abuse', exitCode: 137, message, stdout: 'x\n' }));
    expect(text).toBe(`status: error\nx\nerror: ${message}`);
    expect(structured).toMatchObject({ status: 'error', exitReason: 'protocol_abuse', error: message });
  });
});

