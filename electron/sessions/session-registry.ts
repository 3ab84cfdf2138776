// Live sessions: who opened each (a session answers only to that caller), its sandbox (taken from the warm
// pool, paused between calls), its clocks (idle, maximum age) and how it ended. The engine runs the calls;
// this decides whether a call may run and what happens to the sandbox after it.
import { randomBytes } from 'node:crypto';
import type { ExecutionResult } from '../../shared/execution.js';
import { errorMessage } from '../../shared/errors.js';
import { parseSessionRequest, type SessionEndReason, type SessionInfo, type SessionResultInfo } from '../../shared/sessions.js';
import type { CheckpointReport, SessionBinding } from '../sandbox/engine-config.js';
import type { SandboxContainer } from '../sandbox/run/sandbox-container.js';
import { noCheckpointsNote, recordCheckpoint, stepBack, type CheckpointState } from './session-checkpoints.js';
import { ownerHash, type SessionJournal } from './session-journal.js';
import { busyMessage, callEndDetail, capMessage, checkpointMessage, endedBecause, expiredMessage, malformedMessage, unknownMessage, unsupportedMessage } from './session-messages.js';

/** Who is calling: `key` names the credential (a token's hash) or the stdio connection; never shown. */
export interface SessionCaller {
  key: string;
  client: { name: string; version: string | null };
}

export interface SessionPolicy {
  idleSec: number;
  maxSec: number;
  maxSessions: number;
  /** Checkpoints kept per session (sessionCheckpoints); 0 makes none. */
  checkpoints: number;
}

/** What the registry does to sandboxes (the engine and its backend in the product; fakes in unit tests). */
export interface SessionSandboxes {
  /** The backend's name when it cannot pause (Kubernetes), else null. */
  cannotPause(): string | null;
  pause(container: SandboxContainer): Promise<void>;
  resume(container: SandboxContainer): Promise<void>;
  end(container: SandboxContainer): Promise<void>;
  memory(names: readonly string[]): Promise<{ name: string; memoryBytes: number }[]>;
  /** Cancels a running execution by id (a session ended from the panel mid-call). */
  cancel(runId: string): boolean;
  /** Why sandboxes here keep no checkpoints (the backend's features for its isolation tier), else null. */
  checkpointsRefused?(): string | null;
}

export interface SessionRegistryOptions {
  journal?: SessionJournal;
  /** The memory limit in force, for the words of a memory kill. */
  memoryLimit: () => string;
  now?: () => number;
}

interface LiveSession extends CheckpointState {
  id: string;
  ownerKey: string;
  client: SessionCaller['client'];
  calls: number;
  openedAt: number;
  lastCallAt: number;
  busy: boolean;
  runId: string | null;
  container: SandboxContainer | undefined;
  /** The pause after the last call; the next call waits for it before resuming. */
  pausing: Promise<void>;
  memoryBytes: number | null;
  timer: NodeJS.Timeout | undefined;
}

interface EndedSession {
  owner: string;
  /** Calls it had made (0 for one ended by a restart: that count died with the process). */
  calls: number;
  reason: SessionEndReason;
  detail?: string;
  at: number;
}

/** A call admitted to a session; `abandon` gives the call back when it never reached the engine. */
export type SessionCall =
  | { ok: true; id: string; call: number; binding: SessionBinding; attach(runId: string): void; abandon(): void }
  | { ok: false; message: string };

/** Ended ids are remembered this long (and at most this many), so a late call still hears why. */
const ENDED_KEEP_MS = 24 * 3600_000;
const ENDED_KEEP_MAX = 1000;
/** After a call's answer, before the sandbox is frozen. */
const PAUSE_DELAY_MS = 10;

export class SessionRegistry {
  private readonly live = new Map<string, LiveSession>();
  private readonly ended = new Map<string, EndedSession>();
  private readonly now: () => number;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly sandboxes: SessionSandboxes,
    private readonly policy: () => SessionPolicy,
    private readonly options: SessionRegistryOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Sessions of an earlier life of Sandbar (their containers were reaped at start) end as `restart`. */
  start(): void {
    for (const orphan of this.options.journal?.takeOrphans() ?? []) {
      this.remember(orphan.id, { owner: orphan.owner, calls: 0, reason: 'restart', at: this.now() });
    }
  }

  /** Admits one call: `requested` is "new" or an id this caller holds. */
  begin(caller: SessionCaller, requested: string): SessionCall {
    const parsed = parseSessionRequest(requested);
    if (parsed.kind === 'new') return this.open(caller);
    if (parsed.kind === 'malformed') return { ok: false, message: malformedMessage() };
    const { id, at } = parsed;
    const session = this.live.get(id);
    if (!session || session.ownerKey !== caller.key) {
      const ended = this.ended.get(id);
      if (ended && ended.owner === ownerHash(caller.key)) return { ok: false, message: expiredMessage(id, this.why(ended)) };
      return { ok: false, message: unknownMessage(id) };
    }
    if (session.busy) return { ok: false, message: busyMessage(session.id, session.calls) };
    if (this.now() >= session.openedAt + this.policy().maxSec * 1000) {
      void this.end(session.id, 'max-age');
      return { ok: false, message: expiredMessage(session.id, endedBecause('max-age', undefined, this.policy())) };
    }
    if (at !== undefined && !session.checkpoints.includes(at)) {
      return { ok: false, message: checkpointMessage(session.id, at, { calls: session.calls, kept: session.checkpoints, keep: this.policy().checkpoints, unavailable: session.unavailable }) };
    }
    return this.admit(session, at ?? null);
  }

  /** The `session` part of a call's result (also for a call that ended its session). */
  resultInfo(id: string): SessionResultInfo & { ended?: string; note?: string } {
    const session = this.live.get(id);
    if (session) {
      const notes = session.notes.splice(0);
      return {
        id,
        calls: session.calls,
        idleExpiresInSec: Math.max(0, Math.round((this.expiresAt(session).at - this.now()) / 1000)),
        checkpoints: [...session.checkpoints],
        ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
      };
    }
    const ended = this.ended.get(id);
    return { id, calls: ended?.calls ?? 0, idleExpiresInSec: 0, checkpoints: [], ...(ended ? { ended: this.why(ended) } : {}) };
  }

  list(): SessionInfo[] {
    return [...this.live.values()]
      .sort((a, b) => b.lastCallAt - a.lastCallAt)
      .map((s) => ({
        id: s.id,
        client: s.client,
        calls: s.calls,
        openedAt: s.openedAt,
        lastCallAt: s.lastCallAt,
        idleExpiresAt: this.expiresAt(s).at,
        maxExpiresAt: s.openedAt + this.policy().maxSec * 1000,
        busy: s.busy,
        memoryBytes: s.memoryBytes,
        containerName: s.container?.name ?? null,
        checkpoints: [...s.checkpoints],
      }));
  }

  /** Samples every live session's memory (the panel's list shows it). */
  async refreshMemory(): Promise<void> {
    const withContainers = [...this.live.values()].filter((s) => s.container);
    if (withContainers.length === 0) return;
    const samples = await this.sandboxes.memory(withContainers.map((s) => s.container!.name)).catch(() => []);
    for (const sample of samples) {
      const session = withContainers.find((s) => s.container?.name === sample.name);
      if (session) session.memoryBytes = sample.memoryBytes;
    }
  }

  /** Ends a live session now (its sandbox is removed). False when it had already ended. */
  async close(id: string): Promise<boolean> {
    if (!this.live.has(id)) return false;
    await this.end(id, 'closed');
    return true;
  }

  /**
   * Shutting down: timers stop and the journal keeps the live ids, so the next start can say "restarted".
   * The engine removes the sandboxes.
   */
  dispose(): void {
    for (const session of this.live.values()) clearTimeout(session.timer);
    this.live.clear();
  }

  private open(caller: SessionCaller): SessionCall {
    const backend = this.sandboxes.cannotPause();
    if (backend) return { ok: false, message: unsupportedMessage(backend) };
    const { maxSessions } = this.policy();
    if (this.live.size >= maxSessions) {
      const yours = [...this.live.values()]
        .filter((s) => s.ownerKey === caller.key)
        .map((s) => ({ id: s.id, calls: s.calls, idleSec: Math.round((this.now() - s.lastCallAt) / 1000) }));
      return { ok: false, message: capMessage(maxSessions, yours, this.live.size - yours.length) };
    }
    const now = this.now();
    const session: LiveSession = {
      id: randomBytes(16).toString('hex'),
      ownerKey: caller.key,
      client: caller.client,
      calls: 0,
      openedAt: now,
      lastCallAt: now,
      busy: false,
      runId: null,
      container: undefined,
      pausing: Promise.resolve(),
      memoryBytes: null,
      timer: undefined,
      checkpoints: [],
      notes: [],
      threaded: new Set(),
      unavailable: this.sandboxes.checkpointsRefused?.() ?? null,
    };
    if (session.unavailable && this.policy().checkpoints > 0) session.notes.push(noCheckpointsNote(session.unavailable, this.policy().checkpoints));
    this.live.set(session.id, session);
    this.options.journal?.opened(session.id, caller.key);
    return this.admit(session, null);
  }

  /** `at`: the call to step back to; the calls after it are discarded (given back if this call never runs). */
  private admit(session: LiveSession, at: number | null): SessionCall {
    clearTimeout(session.timer);
    const before = { calls: session.calls, checkpoints: [...session.checkpoints] };
    if (at !== null) {
      session.calls = at;
      stepBack(session, at);
    }
    session.busy = true;
    session.calls += 1;
    session.lastCallAt = this.now();
    const call = session.calls;
    this.changed();
    /** Set once the call ended one way or the other: a late abandon() must not count it back. */
    let settled = false;
    const binding: SessionBinding = {
      get container() {
        return session.container;
      },
      opened: (container) => {
        session.container = container;
        this.changed();
      },
      beforeRun: async (container) => {
        try {
          await session.pausing;
          await this.sandboxes.resume(container);
        } catch (err) {
          throw new Error(`session ${session.id}: its sandbox could not be resumed (${errorMessage(err)})`, { cause: err });
        }
      },
      afterRun: (container, result, kept, report) => {
        settled = true;
        this.afterCall(session, call, container, result, kept, report);
      },
      // Where checkpoints cannot be kept the agent is not asked to try (it would fork for nothing).
      checkpoints: { call, restoreTo: at, keep: session.unavailable ? 0 : this.policy().checkpoints },
      notRun: () => giveBack(),
    };
    const giveBack = () => {
      if (settled || this.live.get(session.id) !== session) return;
      settled = true;
      if (!session.container) {
        // A session whose opening call never ran leaves no trace.
        this.live.delete(session.id);
        this.options.journal?.ended(session.id);
      } else {
        session.calls = before.calls;
        session.checkpoints = before.checkpoints;
        session.notes = [];
        session.busy = false;
        session.runId = null;
        this.schedule(session);
      }
      this.changed();
    };
    return {
      ok: true,
      id: session.id,
      call,
      binding,
      attach: (runId) => {
        session.runId = runId;
      },
      abandon: giveBack,
    };
  }

  /** `state`: `open` when the sandbox waits for the next call, `ended` when the code ended the session. */
  private afterCall(session: LiveSession, call: number, container: SandboxContainer | null, result: ExecutionResult, state: 'open' | 'ended' | null, report?: CheckpointReport): void {
    session.busy = false;
    session.runId = null;
    session.lastCallAt = this.now();
    if (this.live.get(session.id) !== session) return; // ended meanwhile (closed from the panel): nothing to keep
    if (state !== 'open' || !container) {
      if (state === 'ended') void this.end(session.id, 'ended-by-code');
      else {
        const reason = result.exitReason === 'timeout' ? 'timeout' : result.exitReason === 'memory' ? 'memory' : 'crashed';
        void this.end(session.id, reason, callEndDetail(call, result.exitReason, result.message, this.options.memoryLimit()));
      }
      return;
    }
    if (this.now() >= session.openedAt + this.policy().maxSec * 1000) {
      void this.end(session.id, 'max-age');
      return;
    }
    recordCheckpoint(session, call, report, this.policy().checkpoints, this.options.memoryLimit());
    // Frozen until the next call: background threads neither run nor call tools meanwhile. A moment later,
    // so the answer leaves first (starting a process blocks the event loop for a few ms); host calls are
    // already refused by then (the agent stops serving them at the end of each call).
    session.pausing = new Promise<void>((resolve) => setTimeout(resolve, PAUSE_DELAY_MS).unref())
      .then(() => this.sandboxes.pause(container))
      .catch((err: unknown) => {
        void this.end(session.id, 'crashed', `its sandbox could not be paused (${errorMessage(err)})`);
      });
    this.schedule(session);
    void session.pausing.then(() => this.changed());
    this.changed();
  }

  private async end(id: string, reason: SessionEndReason, detail?: string): Promise<void> {
    const session = this.live.get(id);
    if (!session) return;
    this.live.delete(id);
    clearTimeout(session.timer);
    this.remember(id, { owner: ownerHash(session.ownerKey), calls: session.calls, reason, ...(detail ? { detail } : {}), at: this.now() });
    this.options.journal?.ended(id);
    this.changed();
    if (session.busy && session.runId) this.sandboxes.cancel(session.runId);
    if (session.container) {
      await session.pausing.catch(() => {});
      await this.sandboxes.end(session.container).catch(() => {});
    }
  }

  private remember(id: string, ended: EndedSession): void {
    this.ended.set(id, ended);
    const oldest = this.now() - ENDED_KEEP_MS;
    for (const [key, value] of this.ended) {
      if (this.ended.size <= ENDED_KEEP_MAX && value.at >= oldest) break;
      this.ended.delete(key);
    }
  }

  private why(ended: EndedSession): string {
    return endedBecause(ended.reason, ended.detail, this.policy());
  }

  /** When an idle session ends: after `idleSec` without a call, or at its maximum age if that comes first. */
  private expiresAt(session: LiveSession): { at: number; reason: 'idle' | 'max-age' } {
    const { idleSec, maxSec } = this.policy();
    const idle = session.lastCallAt + idleSec * 1000;
    const max = session.openedAt + maxSec * 1000;
    return idle <= max ? { at: idle, reason: 'idle' } : { at: max, reason: 'max-age' };
  }

  private schedule(session: LiveSession): void {
    clearTimeout(session.timer);
    const { at, reason } = this.expiresAt(session);
    session.timer = setTimeout(() => void this.end(session.id, reason), Math.max(0, at - this.now()));
    session.timer.unref();
  }

  /** Told after any session opens, calls, pauses or ends (the control API sends `sessions.changed`). */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A broken subscriber must not break a session.
      }
    }
  }
}
