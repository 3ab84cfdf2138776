// The registry's side of checkpoints (issue 28), over fake sandboxes: `<id>@<n>` binds like the id, steps
// back only to a checkpoint it knows is kept, discards the later calls (given back if the call never ran),
// keeps at most `sessionCheckpoints`, says drops for memory once, and trusts the agent's report only as far
// as it expects.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExecutionResult } from '../../../shared/execution.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';
import type { CheckpointReport } from '../../../electron/sandbox/engine-config.js';
import type { SandboxContainer } from '../../../electron/sandbox/run/sandbox-container.js';
import { AGENT_CANNOT_CHECKPOINT } from '../../../electron/sessions/session-checkpoints.js';
import { SessionRegistry, type SessionCall, type SessionPolicy, type SessionSandboxes } from '../../../electron/sessions/session-registry.js';

const A = { key: 'token:a', client: { name: 'claude-code', version: '2.0' } };
const B = { key: 'connection:b', client: { name: 'cursor', version: null } };

const success: ExecutionResult = {
  id: 'run', exitReason: 'success', exitCode: 0, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false,
  timeoutSec: 30, limits: DEFAULT_LIMITS, queuedAt: 0, startedAt: 0, finishedAt: 0, durationMs: 0,
};

let policy: SessionPolicy;
let registry: SessionRegistry;
let sandboxes: SessionSandboxes;

function ok(call: SessionCall): Extract<SessionCall, { ok: true }> {
  if (!call.ok) throw new Error(call.message);
  return call;
}

/** One call that ends normally; the agent reports a checkpoint of it unless `report` says otherwise. */
async function runCall(call: Extract<SessionCall, { ok: true }>, report: Partial<CheckpointReport> = {}) {
  let container = call.binding.container;
  if (!container) {
    container = { name: 'sandbar-1', isAlive: true } as unknown as SandboxContainer;
    call.binding.opened(container);
  } else {
    await call.binding.beforeRun(container);
  }
  call.binding.afterRun(container, success, 'open', { made: call.call, dropped: [], threads: false, ...report });
  await vi.advanceTimersByTimeAsync(20);
}

/** Opens a session as A and makes `n` calls in it. */
async function sessionWith(n: number): Promise<string> {
  const open = ok(registry.begin(A, 'new'));
  await runCall(open);
  for (let i = 1; i < n; i++) await runCall(ok(registry.begin(A, open.id)));
  return open.id;
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  sandboxes = {
    cannotPause: () => null,
    pause: async () => {},
    resume: async () => {},
    end: async () => {},
    memory: async () => [],
    cancel: () => true,
  };
  policy = { idleSec: 600, maxSec: 3600, maxSessions: 2, checkpoints: 5 };
  registry = new SessionRegistry(sandboxes, () => policy, { memoryLimit: () => '512m', now: () => Date.now() });
});

afterEach(() => {
  registry.dispose();
  vi.useRealTimers();
});

describe('session checkpoints in the registry', () => {
  it('lists the checkpoints in the result and steps back to one, discarding the calls after it', async () => {
    const id = await sessionWith(4);
    expect(registry.resultInfo(id)).toMatchObject({ calls: 4, checkpoints: [1, 2, 3, 4] });
    const back = ok(registry.begin(A, `${id}@2`));
    expect(back.call).toBe(3);
    expect(back.binding.checkpoints).toEqual({ call: 3, restoreTo: 2, keep: 5 });
    await runCall(back);
    expect(registry.resultInfo(id)).toMatchObject({ calls: 3, checkpoints: [1, 2, 3] });
    const plain = ok(registry.begin(A, id));
    expect(plain.binding.checkpoints).toEqual({ call: 4, restoreTo: null, keep: 5 });
    expect(plain.call).toBe(4);
  });

  it('binds `<id>@<n>` to the caller like the id: unknown to anyone else, expired once ended', async () => {
    const id = await sessionWith(2);
    expect(registry.begin(B, `${id}@1`)).toEqual({ ok: false, message: expect.stringContaining(`session ${id} is unknown`) });
    await registry.close(id);
    expect(registry.begin(A, `${id}@1`)).toEqual({ ok: false, message: expect.stringContaining(`session ${id} expired`) });
    expect(registry.begin(A, `${'a'.repeat(32)}@1`)).toEqual({ ok: false, message: expect.stringContaining('is unknown') });
  });

  it('refuses a checkpoint never made or no longer kept, naming the calls that can still be returned to', async () => {
    const id = await sessionWith(3);
    const never = registry.begin(A, `${id}@7`);
    expect(never).toEqual({ ok: false, message: expect.stringContaining('checkpoint of call 7: call 7 was never made (the session has made 3)') });
    expect(never.ok === false && never.message).toContain('Calls that can still be returned to: 1, 2, 3');
    await runCall(ok(registry.begin(A, `${id}@1`))); // discards 2 and 3
    const gone = registry.begin(A, `${id}@3`);
    expect(gone).toEqual({ ok: false, message: expect.stringContaining('checkpoint of call 3') });
    expect(gone.ok === false && gone.message).toContain('Calls that can still be returned to: 1, 2');
    // A refusal changes nothing: the session goes on from where it was.
    expect(ok(registry.begin(A, id)).call).toBe(3);
  });

  it('keeps only the last sessionCheckpoints, and none with 0 (where @n says so)', async () => {
    policy = { ...policy, checkpoints: 2 };
    const id = await sessionWith(4);
    expect(registry.resultInfo(id).checkpoints).toEqual([3, 4]);
    const old = registry.begin(A, `${id}@2`);
    expect(old.ok === false && old.message).toMatch(/no longer kept \(at most 2 are kept, sessionCheckpoints/);
    policy = { ...policy, checkpoints: 0 };
    await runCall(ok(registry.begin(A, id)));
    expect(registry.resultInfo(id).checkpoints).toEqual([]);
    const off = registry.begin(A, `${id}@4`);
    expect(off.ok === false && off.message).toContain('checkpoints are off here (sessionCheckpoints is 0)');
  });

  it('gives a step back that never ran back whole: calls and checkpoints as before', async () => {
    const id = await sessionWith(3);
    const back = ok(registry.begin(A, `${id}@1`));
    back.binding.notRun();
    expect(registry.resultInfo(id)).toMatchObject({ calls: 3, checkpoints: [1, 2, 3] });
  });

  it('says once which checkpoints went for memory, and on a step back that threads running then are gone', async () => {
    const id = await sessionWith(3);
    await runCall(ok(registry.begin(A, id)), { dropped: [1, 2], threads: true });
    const info = registry.resultInfo(id);
    expect(info.checkpoints).toEqual([3, 4]);
    expect(info.note).toBe('checkpoints of calls 1, 2 dropped to stay within the memory limit 512m.');
    expect(registry.resultInfo(id)).not.toHaveProperty('note');
    await runCall(ok(registry.begin(A, `${id}@4`)), { threads: true });
    expect(registry.resultInfo(id).note).toBe('threads the code had started by call 4 were running then; a step back does not bring them back.');
    await runCall(ok(registry.begin(A, `${id}@3`)));
    expect(registry.resultInfo(id)).not.toHaveProperty('note'); // none ran at call 3
    await runCall(ok(registry.begin(A, `${id}@4`))); // the new call 4 ran none either
    expect(registry.resultInfo(id)).not.toHaveProperty('note');
  });

  it('cuts to the older ones the agent keeps before it applies drops for memory (the oldest was ended unasked)', async () => {
    const id = await sessionWith(5); // 1..5 kept, sessionCheckpoints 5
    // Call 6: the agent ends 1 (it keeps 4 older before forking) and then 2, 3 for memory; 4, 5 and 6 stay.
    await runCall(ok(registry.begin(A, id)), { dropped: [2, 3] });
    expect(registry.resultInfo(id)).toMatchObject({ calls: 6, checkpoints: [4, 5, 6], note: 'checkpoints of calls 2, 3 dropped to stay within the memory limit 512m.' });
    expect(registry.begin(A, `${id}@1`).ok).toBe(false);
  });

  it('says so when the sandbox cannot keep checkpoints (the agent finds out: gVisor unseen by the settings)', async () => {
    const open = ok(registry.begin(A, 'new'));
    await runCall(open, { made: null, unavailable: true });
    expect(registry.resultInfo(open.id).note).toBe(`sessionCheckpoints is 5, but this sandbox keeps no checkpoints: ${AGENT_CANNOT_CHECKPOINT}.`);
    const refused = registry.begin(A, `${open.id}@1`);
    expect(refused.ok === false && refused.message).toContain('this sandbox cannot keep checkpoints (under gVisor');
  });

  it('where the backend says its tier keeps none (gVisor), asks the agent for none and says why, once', async () => {
    const why = 'under gVisor the relay cannot adopt the process that holds a checkpoint';
    const gvisor = new SessionRegistry({ ...sandboxes, checkpointsRefused: () => why }, () => policy, { memoryLimit: () => '512m', now: () => Date.now() });
    try {
      const open = ok(gvisor.begin(A, 'new'));
      expect(open.binding.checkpoints.keep).toBe(0);
      await runCall(open, { made: null });
      expect(gvisor.resultInfo(open.id)).toMatchObject({ checkpoints: [], note: `sessionCheckpoints is 5, but this sandbox keeps no checkpoints: ${why}.` });
      await runCall(ok(gvisor.begin(A, open.id)), { made: null });
      expect(gvisor.resultInfo(open.id)).not.toHaveProperty('note');
      const refused = gvisor.begin(A, `${open.id}@1`);
      expect(refused.ok === false && refused.message).toBe(`session ${open.id} has no checkpoint of call 1: this sandbox cannot keep checkpoints (${why}), so no call can be returned to. Continue with the id alone.`);
      policy = { ...policy, checkpoints: 0 };
      const quiet = ok(gvisor.begin(A, 'new'));
      await runCall(quiet, { made: null });
      expect(gvisor.resultInfo(quiet.id)).not.toHaveProperty('note'); // nothing asked, nothing to excuse
    } finally {
      gvisor.dispose();
    }
  });

  it('keeps only what it expects of the agent’s report: no checkpoint for another call, none it never knew', async () => {
    const id = await sessionWith(2);
    await runCall(ok(registry.begin(A, id)), { made: 9, dropped: [7, 1.5] });
    expect(registry.resultInfo(id)).toMatchObject({ calls: 3, checkpoints: [1, 2] });
    await runCall(ok(registry.begin(A, id)), { made: null });
    expect(registry.resultInfo(id).checkpoints).toEqual([1, 2]);
  });
});
