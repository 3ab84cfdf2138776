// The session registry on its own, over fake sandboxes and a fake clock: ids and their owners, the cap,
// the clocks, how calls end sessions, the journal across a restart, and what the panel sees.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExecutionResult } from '../../../shared/execution.js';
import { DEFAULT_LIMITS } from '../../../shared/limits.js';
import type { SandboxContainer } from '../../../electron/sandbox/run/sandbox-container.js';
import { SessionJournal } from '../../../electron/sessions/session-journal.js';
import { SessionRegistry, type SessionCall, type SessionPolicy, type SessionSandboxes } from '../../../electron/sessions/session-registry.js';

const A = { key: 'token:a', client: { name: 'claude-code', version: '2.0' } };
const B = { key: 'connection:b', client: { name: 'cursor', version: null } };

function fakeContainer(name: string): SandboxContainer {
  return { name, isAlive: true } as unknown as SandboxContainer;
}

function result(exitReason: ExecutionResult['exitReason'], message?: string): ExecutionResult {
  return {
    id: 'run', exitReason, exitCode: exitReason === 'success' ? 0 : 137, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false,
    ...(message ? { message } : {}), timeoutSec: 30, limits: DEFAULT_LIMITS, queuedAt: 0, startedAt: 0, finishedAt: 0, durationMs: 0,
  };
}

let sandboxes: SessionSandboxes & { log: string[]; cannot: string | null };
let policy: SessionPolicy;
let registry: SessionRegistry;
let home: string;
let made = 0;

function ok(call: SessionCall): Extract<SessionCall, { ok: true }> {
  if (!call.ok) throw new Error(call.message);
  return call;
}

/** Runs one call as the engine would: container for a new session, resume, then the call's end. */
async function runCall(call: Extract<SessionCall, { ok: true }>, end: ExecutionResult = result('success'), state: 'open' | 'ended' | null = 'open') {
  let container = call.binding.container;
  if (!container) {
    container = fakeContainer(`sandbar-${++made}`);
    call.binding.opened(container);
  } else {
    await call.binding.beforeRun(container);
  }
  call.binding.afterRun(container, end, state);
  await vi.advanceTimersByTimeAsync(20); // the pause comes a moment after the answer
  return container;
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  const log: string[] = [];
  sandboxes = {
    log,
    cannot: null,
    cannotPause: () => sandboxes.cannot,
    pause: async (c) => void log.push(`pause ${c.name}`),
    resume: async (c) => void log.push(`resume ${c.name}`),
    end: async (c) => void log.push(`end ${c.name}`),
    memory: async (names) => names.map((name) => ({ name, memoryBytes: 42 })),
    cancel: (id) => (log.push(`cancel ${id}`), true),
  };
  policy = { idleSec: 600, maxSec: 3600, maxSessions: 2, checkpoints: 5 };
  home = mkdtempSync(path.join(tmpdir(), 'sandbar-sessions-'));
  registry = new SessionRegistry(sandboxes, () => policy, { journal: new SessionJournal(home), memoryLimit: () => '512m', now: () => Date.now() });
  registry.start();
});

afterEach(() => {
  registry.dispose();
  vi.useRealTimers();
});

describe('the session registry', () => {
  it('opens with a 128-bit hex id, counts calls, pauses after each and resumes before the next', async () => {
    const first = ok(registry.begin(A, 'new'));
    expect(first.id).toMatch(/^[0-9a-f]{32}$/);
    expect(first.call).toBe(1);
    const container = await runCall(first);
    const second = ok(registry.begin(A, first.id));
    expect(second.call).toBe(2);
    await runCall(second);
    await vi.advanceTimersByTimeAsync(0);
    expect(sandboxes.log.filter((l) => !l.startsWith('cancel'))).toEqual([`pause ${container.name}`, `resume ${container.name}`, `pause ${container.name}`]);
    expect(registry.resultInfo(first.id)).toEqual({ id: first.id, calls: 2, idleExpiresInSec: 600, checkpoints: [] }); // none reported, none kept
    expect(registry.list()[0]!.memoryBytes).toBeNull(); // sampled on demand (the panel's list asks)
    await registry.refreshMemory();
    expect(registry.list()).toEqual([
      expect.objectContaining({ id: first.id, calls: 2, busy: false, client: A.client, containerName: container.name, memoryBytes: 42, maxExpiresAt: 1_000_000 + 3_600_000 }),
    ]);
  });

  it('answers only the caller that opened it: to anyone else a live or ended id is unknown', async () => {
    const open = ok(registry.begin(A, 'new'));
    await runCall(open);
    const other = registry.begin(B, open.id);
    expect(other).toEqual({ ok: false, message: expect.stringContaining(`session ${open.id} is unknown`) });
    await registry.close(open.id);
    expect(registry.begin(B, open.id)).toEqual({ ok: false, message: expect.stringContaining('is unknown') });
    expect(registry.begin(A, open.id)).toEqual({ ok: false, message: expect.stringContaining(`session ${open.id} expired: it was ended from the panel`) });
  });

  it('calls malformed ids unknown without looking anything up', () => {
    for (const id of ['', 'New', 'abc', 'A'.repeat(32), 'a'.repeat(33)]) {
      expect(registry.begin(A, id)).toEqual({ ok: false, message: expect.stringMatching(/^session is unknown/) });
    }
  });

  it('refuses one call at a time per session (busy), and gives an abandoned call back', async () => {
    const open = ok(registry.begin(A, 'new'));
    expect(registry.begin(A, open.id)).toEqual({ ok: false, message: expect.stringContaining('is busy') });
    await runCall(open);
    const next = ok(registry.begin(A, open.id));
    next.abandon();
    expect(registry.list()[0]).toMatchObject({ calls: 1, busy: false });
  });

  it('leaves no trace of a session whose opening call never ran', () => {
    const open = ok(registry.begin(A, 'new'));
    open.abandon();
    expect(registry.list()).toEqual([]);
    expect(registry.begin(A, open.id)).toEqual({ ok: false, message: expect.stringContaining('is unknown') });
  });

  it('refuses a session beyond maxSessions (never evicts), listing the caller’s own ids only', async () => {
    policy.maxSessions = 2;
    const a = ok(registry.begin(A, 'new'));
    await runCall(a);
    const b = ok(registry.begin(B, 'new'));
    await runCall(b);
    const refused = registry.begin(A, 'new');
    expect(refused.ok).toBe(false);
    const message = (refused as { message: string }).message;
    expect(message).toContain('session refused: 2 sessions are live');
    expect(message).toContain(a.id);
    expect(message).not.toContain(b.id);
    expect(message).toContain('1 belongs to other clients');
    expect(registry.list()).toHaveLength(2);
    policy.maxSessions = 0;
    expect(registry.begin(A, 'new')).toEqual({ ok: false, message: expect.stringContaining('sessions are turned off') });
  });

  it('refuses sessions on a backend that cannot pause, naming it', () => {
    sandboxes.cannot = 'Kubernetes';
    expect(registry.begin(A, 'new')).toEqual({ ok: false, message: expect.stringContaining('not available with the Kubernetes runtime') });
  });

  it('ends an idle session at sessionIdleSec, and one at sessionMaxSec however busy, removing the sandbox', async () => {
    policy = { idleSec: 60, maxSec: 100, maxSessions: 2, checkpoints: 5 };
    const idle = ok(registry.begin(A, 'new'));
    const container = await runCall(idle);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(registry.list()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(registry.list()).toHaveLength(0);
    expect(sandboxes.log).toContain(`end ${container.name}`);
    expect(registry.begin(A, idle.id)).toEqual({ ok: false, message: expect.stringContaining('expired: no call came for 60s') });

    const old = ok(registry.begin(A, 'new'));
    await runCall(old);
    for (let i = 0; i < 3; i++) {
      await vi.advanceTimersByTimeAsync(30_000);
      const call = registry.begin(A, old.id);
      if (!call.ok) break;
      await runCall(call);
    }
    await vi.advanceTimersByTimeAsync(15_000);
    expect(registry.begin(A, old.id)).toEqual({ ok: false, message: expect.stringContaining('maximum age of 100s') });
  });

  it('ends a session on a timeout, a memory kill or a crash, and by the code, each said in words', async () => {
    const cases: [ExecutionResult, 'open' | 'ended' | null, RegExp][] = [
      [result('timeout', 'Execution timed out after 5s'), null, /expired: its call 1 timed out \(Execution timed out after 5s\)/],
      [result('memory', 'killed: memory limit 512m reached'), null, /expired: its call 1 was killed: memory limit 512m reached/],
      [result('error', 'Sandbox exited with code 1'), null, /expired: its sandbox stopped during call 1/],
      [result('success'), 'ended', /expired: the code ended it with runtime\.end_session\(\)/],
    ];
    for (const [end, state, words] of cases) {
      const open = ok(registry.begin(A, 'new'));
      const container = await runCall(open, end, state);
      expect(sandboxes.log).toContain(`end ${container.name}`);
      expect(registry.resultInfo(open.id)).toMatchObject({ id: open.id, calls: 1, idleExpiresInSec: 0, ended: expect.any(String) });
      expect(registry.begin(A, open.id)).toEqual({ ok: false, message: expect.stringMatching(words) });
    }
    expect(registry.list()).toEqual([]);
  });

  it('closing a session mid-call cancels the call and removes the sandbox; closing it again says false', async () => {
    const open = ok(registry.begin(A, 'new'));
    open.binding.opened(fakeContainer('sandbar-busy'));
    open.attach('run-7');
    expect(await registry.close(open.id)).toBe(true);
    expect(sandboxes.log).toEqual(['cancel run-7', 'end sandbar-busy']);
    expect(await registry.close(open.id)).toBe(false);
  });

  it('tells subscribers of every change (the control API sends sessions.changed)', async () => {
    let changes = 0;
    const off = registry.subscribe(() => changes++);
    const open = ok(registry.begin(A, 'new'));
    await runCall(open);
    await registry.close(open.id);
    off();
    expect(changes).toBeGreaterThanOrEqual(3);
  });

  it('after a restart, ids of the earlier life say Sandbar restarted to their owner only', async () => {
    const open = ok(registry.begin(A, 'new'));
    await runCall(open);
    registry.dispose();
    const next = new SessionRegistry(sandboxes, () => policy, { journal: new SessionJournal(home), memoryLimit: () => '512m' });
    next.start();
    expect(next.begin(A, open.id)).toEqual({ ok: false, message: expect.stringContaining(`session ${open.id} expired: Sandbar restarted`) });
    expect(next.begin(B, open.id)).toEqual({ ok: false, message: expect.stringContaining('is unknown') });
    // Taken once: a further life has nothing left to explain.
    const third = new SessionRegistry(sandboxes, () => policy, { journal: new SessionJournal(home), memoryLimit: () => '512m' });
    third.start();
    expect(third.begin(A, open.id)).toEqual({ ok: false, message: expect.stringContaining('is unknown') });
  });
});

describe('calls that never ran', () => {
  it('gives a queued call back when the engine never ran it (cancelled, busy, paused): the session goes on', async () => {
    const open = ok(registry.begin(A, 'new'));
    await runCall(open);
    const skipped = ok(registry.begin(A, open.id));
    skipped.binding.notRun();
    expect(registry.list()[0]).toMatchObject({ calls: 1, busy: false });
    skipped.abandon(); // a second give-back counts nothing
    expect(registry.list()[0]).toMatchObject({ calls: 1 });
    const next = ok(registry.begin(A, open.id));
    expect(next.call).toBe(2);
    await runCall(next);
    next.abandon(); // after the call ended: nothing to give back
    expect(registry.list()[0]).toMatchObject({ calls: 2 });
  });
});
