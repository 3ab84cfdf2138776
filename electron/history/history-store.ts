// The history service: opens (or recovers) the database under SANDBAR_HOME, records the engine's events,
// answers queries, and applies retention at start and hourly. Recording never throws into the engine:
// a failed write is logged and counted, and the run itself carries on.
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Artifact } from '../../shared/artifacts.js';
import type { EngineEvent } from '../../shared/execution.js';
import { AppError, errorMessage } from '../../shared/errors.js';
import type { Limits } from '../../shared/limits.js';
import type { Logger } from '../logger.js';
import { HistoryReader } from './history-reader.js';
import { HistoryRetention } from './history-retention.js';
import {
  DEFAULT_RETENTION,
  type HistoryDetail,
  type HistoryHealth,
  type HistoryPage,
  type HistoryQuery,
  type PruneResult,
  type RetentionPolicy,
  type StatusCounts,
} from '../../shared/history.js';
import { HistoryWriter, type WriterIdentity } from './history-writer.js';
import { WriteBatch } from './write-batch.js';
import { markInterrupted } from './interrupted-runs.js';
import { SCHEMA_VERSION } from './migrations.js';
import { checkMarkerOf, openDatabase, type Recovery } from './open-database.js';
import { openDriver, type DriverChoice } from './open-driver.js';
import { isCorruptionError, type DriverFactory, type SqlDriver } from './sqlite-driver.js';

export const HISTORY_FILE = 'history.db';
const HOUR_MS = 60 * 60 * 1000;

export interface HistoryStoreOptions {
  /** The database file, normally `path.join(home, HISTORY_FILE)`. */
  file: string;
  logger: Logger;
  retention?: RetentionPolicy;
  /** 'auto' is node:sqlite inside Electron, better-sqlite3 elsewhere; a factory replaces both (tests). */
  driver?: DriverChoice | DriverFactory;
  /** The engine's limits when a run is queued: `() => engine.currentConfig.limits`. */
  currentLimits?: () => Limits | undefined;
  identity?: WriterIdentity;
  isAlive?: (pid: number) => boolean;
  now?: () => number;
  pruneIntervalMs?: number;
}

interface Open {
  db: SqlDriver;
  writer: HistoryWriter;
  reader: HistoryReader;
  retention: HistoryRetention;
}

/** Stores open in this process, per file: tells our own pid's leftovers from a sibling store's live runs. */
const openHere = new Map<string, number>();

/** The events the writer stores something for (history-writer.ts handle()); the rest (output above all) are never queued. A new event type must be placed here. */
const RECORDED: Record<EngineEvent['type'], boolean> = {
  queued: true, started: true, toolCall: true, finished: true, approvalResolved: true,
  output: false, egress: false, serverStateChanged: false, poolChanged: false, pausedChanged: false, approvalRequested: false,
};

export class HistoryStore {
  private open: Open | null = null;
  private timer: NodeJS.Timeout | undefined;
  private pruning_: Promise<PruneResult> | null = null;
  private health_: HistoryHealth;
  private readonly file: string;
  /** Events waiting to be written (write-batch.ts); the limits in force when a run was queued travel with it. */
  private readonly batch = new WriteBatch<{ event: EngineEvent; limits: Limits | undefined }>((items) => this.writeAll(items));

  constructor(private readonly options: HistoryStoreOptions) {
    this.file = path.resolve(options.file);
    this.health_ = { available: false, file: this.file, driver: null, recovered: null, error: null, writeErrors: 0 };
  }

  /** Set when a damaged database was moved aside at start. */
  get recovered(): Recovery | null {
    return this.health_.recovered;
  }

  /**
   * Opens, migrates, marks dead writers' runs interrupted and prunes. Never rejects: a store that could
   * not open stays unavailable (see health()), recording becomes a no-op and queries throw.
   */
  async start(): Promise<void> {
    if (this.open) return;
    const { driver = 'auto' } = this.options;
    const factory: DriverFactory = typeof driver === 'function' ? driver : (file) => openDriver(file, driver);
    let db: SqlDriver | undefined;
    try {
      const opened = await openDatabase(this.file, factory, () => new Date(this.now()));
      db = opened.db;
      const { recovered, migratedFrom } = opened;
      if (recovered) this.options.logger.warn(`history database was damaged (${recovered.reason}); moved to ${recovered.movedTo}, starting afresh`);
      if (migratedFrom > 0 && migratedFrom < SCHEMA_VERSION) this.options.logger.info(`history database migrated from schema v${migratedFrom}`);
      const identity = this.options.identity ?? { host: hostname(), pid: process.pid };
      const interrupted = markInterrupted(db, {
        identity,
        now: this.now(),
        ownPidInUse: (openHere.get(this.file) ?? 0) > 0,
        ...(this.options.isAlive ? { isAlive: this.options.isAlive } : {}),
      });
      if (interrupted > 0) this.options.logger.info(`history: ${interrupted} run(s) left unfinished by a stopped Sandbar marked interrupted`);
      this.open = {
        db,
        writer: new HistoryWriter(db, { identity, ...(this.options.currentLimits ? { currentLimits: this.options.currentLimits } : {}) }),
        reader: new HistoryReader(db),
        retention: new HistoryRetention(db, () => this.now()),
      };
      openHere.set(this.file, (openHere.get(this.file) ?? 0) + 1);
      this.health_ = { ...this.health_, available: true, driver: db.kind, recovered, error: null };
    } catch (err) {
      db?.close();
      this.health_ = { ...this.health_, available: false, error: `History is unavailable: ${errorMessage(err)}` };
      this.options.logger.error(this.health_.error!);
      return;
    }
    this.pruneInBackground();
    this.timer = setInterval(() => this.pruneInBackground(), this.options.pruneIntervalMs ?? HOUR_MS);
    this.timer.unref();
  }

  /** The retention pass in progress (started at start() and hourly), or null: tests and shutdown can await it. */
  get pruning(): Promise<PruneResult> | null {
    return this.pruning_;
  }

  /**
   * The engine subscriber: `engine.subscribe((e) => history.record(e))`. Never throws. The write happens on
   * the next turn, batched with the others of this turn (write-batch.ts); every read below sees it.
   */
  record(event: EngineEvent): void {
    if (!this.open || !RECORDED[event.type]) return;
    this.batch.add({ event, limits: event.type === 'queued' ? this.options.currentLimits?.() : undefined });
  }

  /** Writes the events still waiting, now (reads, dispose and the process's exit do it themselves). */
  flush(): void {
    this.batch.flush();
  }

  list(query?: HistoryQuery): HistoryPage {
    return this.ready().reader.list(query);
  }

  get(id: string): HistoryDetail | null {
    return this.ready().reader.get(id);
  }

  /** One stored figure, display or file with its bytes; null when the run or the name is unknown. */
  artifact(runId: string, name: string): Artifact | null {
    return this.ready().reader.artifact(runId, name);
  }

  facets(): { clients: string[]; servers: string[] } {
    return this.ready().reader.facets();
  }

  /** A settings change: the next pass (hourly, or `prune()`) applies the new policy. */
  setRetention(retention: RetentionPolicy): void {
    this.options.retention = retention;
  }

  countByStatus(since?: number): StatusCounts {
    return this.ready().reader.countByStatus(since);
  }

  /** Applies the retention policy now, in one go (it also runs in the background at start and hourly). */
  prune(): PruneResult {
    return this.ready().retention.prune(this.options.retention ?? DEFAULT_RETENTION);
  }

  /** The "clear history" action: deletes every finished run; runs in flight stay. Returns how many went. */
  clear(): number {
    return this.ready().retention.clear();
  }

  /** The recorded size of all runs, which the size limit applies to. */
  totalBytes(): number {
    return this.ready().retention.totalBytes();
  }

  health(): HistoryHealth {
    // Write errors are counted when the writes are made.
    if (this.open) this.batch.flush();
    return { ...this.health_ };
  }

  dispose(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (!this.open) return;
    this.batch.flush();
    const count = (openHere.get(this.file) ?? 1) - 1;
    if (count > 0) openHere.set(this.file, count);
    else openHere.delete(this.file);
    try {
      this.open.db.close();
    } catch (err) {
      this.options.logger.warn(`history: closing the database failed: ${errorMessage(err)}`);
    }
    this.open = null;
    this.health_ = { ...this.health_, available: false };
  }

  /** Every read and every maintenance pass starts here: what was recorded before it is written first. */
  private ready(): Open {
    if (!this.open) throw new AppError('internal', this.health_.error ?? 'History is not open');
    this.batch.flush();
    return this.open;
  }

  /** One transaction for a batch: one commit instead of one per event. */
  private writeAll(items: { event: EngineEvent; limits: Limits | undefined }[]): void {
    const open = this.open;
    if (!open) return;
    const each = () => {
      for (const { event, limits } of items) {
        try {
          open.writer.handle(event, limits);
        } catch (err) {
          this.writeFailed(event, err);
        }
      }
    };
    try {
      open.db.transaction(each);
    } catch (err) {
      // The transaction itself failed (busy past the timeout, a full disk at commit): write them one by one.
      this.options.logger.warn(`history: a batch of ${items.length} write(s) failed as one (${errorMessage(err)}); writing them one by one`);
      each();
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** One batch at a time with the event loop free in between: a month's backlog must not stall the engine. */
  private pruneInBackground(): void {
    const open = this.open;
    if (!open || this.pruning_) return;
    const steps = open.retention.pruneSteps(this.options.retention ?? DEFAULT_RETENTION);
    const run = async (): Promise<PruneResult> => {
      let done: PruneResult = { byAge: 0, bySize: 0 };
      try {
        for (let step = steps.next(); ; step = steps.next()) {
          done = step.value;
          if (step.done) break;
          await new Promise((r) => setImmediate(r));
          if (this.open !== open) break; // disposed meanwhile
        }
        if (done.byAge + done.bySize > 0) this.options.logger.info(`history: retention deleted ${done.byAge} run(s) by age and ${done.bySize} by size`);
      } catch (err) {
        this.options.logger.warn(`history: retention failed: ${errorMessage(err)}`);
      }
      return done;
    };
    this.pruning_ = run().finally(() => (this.pruning_ = null));
  }

  private writeFailed(event: EngineEvent, err: unknown): void {
    this.health_.writeErrors++;
    this.health_.error = `Recording a ${event.type} event failed: ${errorMessage(err)}`;
    this.options.logger.warn(`history: ${this.health_.error}`);
    if (!isCorruptionError(err)) return;
    try {
      // The next start runs a full integrity check and moves the file aside if it fails.
      writeFileSync(checkMarkerOf(this.file), `${new Date(this.now()).toISOString()} ${errorMessage(err)}\n`);
    } catch {
      // Best effort: the warning above already says what happened.
    }
  }
}
