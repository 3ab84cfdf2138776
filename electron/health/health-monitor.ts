// Keeps the one live health report and tells the panel and the tray when it changes. Two kinds of rows:
// the sandbox's (runtime, image, the enforcement probe) and the app's, collected at start, on request and
// after a relevant settings change, with a cheap check every so often that notices a runtime or image that
// went away (or came back) and collects again then; and the rows about live things (endpoint, pool and
// queue, servers), recomputed whenever one of them changes, so Health shows the numbers Live shows. Live
// rows that need I/O to read (the package cache) are read again on `remeasure()`, one read at a time. A
// live row replaces the collected row with the same id, in its place.
import { isDeepStrictEqual } from 'node:util';
import type { HealthCheck, HealthReport } from '../../shared/health.js';
import { errorMessage } from '../../shared/errors.js';
import type { Logger } from '../logger.js';

export interface QuickState {
  runtime: boolean;
  image: boolean;
}

export interface HealthMonitorOptions {
  collect: (probe: boolean) => Promise<HealthReport>;
  /** The rows about live things, computed from their current state: cheap, no I/O. */
  live?: () => HealthCheck[];
  /** Live rows that take I/O to read (the package cache), read again on `remeasure()`. */
  measured?: () => Promise<HealthCheck[]>;
  /** Is the runtime still there and the image present? Must be cheap: it runs on a timer. */
  quickState: () => Promise<QuickState>;
  onChange: (report: HealthReport) => void;
  log: Logger;
  intervalMs?: number;
  now?: () => number;
}

export class HealthMonitor {
  /** The last collected report (runtime, image, probe, app checks), before the live rows are added. */
  private collected: HealthReport | null = null;
  /** What was last handed out: `collected` with the live rows as they were then. */
  private report: HealthReport | null = null;
  private running: Promise<HealthReport> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private refreshing: NodeJS.Immediate | undefined;
  private checking = false;
  /** The last rows `measured` gave; none until it first answers (the collected rows stand until then). */
  private measuredRows: HealthCheck[] = [];
  private measuring: Promise<void> | undefined;
  private measureAgain = false;

  constructor(private readonly options: HealthMonitorOptions) {}

  /** The report with its live rows as they are now. */
  get latest(): HealthReport | null {
    return this.collected ? this.publish(false) : null;
  }

  start(): void {
    void this.probe().catch((err: unknown) => this.options.log.warn(`health check failed: ${errorMessage(err)}`));
    this.timer = setInterval(() => void this.check(), this.options.intervalMs ?? 30_000);
    this.timer.unref();
  }

  dispose(): void {
    clearInterval(this.timer);
    if (this.refreshing) clearImmediate(this.refreshing);
    this.refreshing = undefined;
  }

  /** The full report with the probe; concurrent requests share one run. */
  probe(): Promise<HealthReport> {
    this.running ??= this.options
      .collect(true)
      .then((report) => {
        this.collected = report;
        // The collection read the measured rows too, as they are now.
        this.measuredRows = [];
        return this.publish(true);
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /**
   * Something live changed (a run queued or ended, the pool filled, the endpoint moved): recompute its rows
   * and tell the panel if they read differently. Changes in one burst are one pass, on the next turn.
   */
  refresh(): void {
    if (!this.collected || this.refreshing) return;
    this.refreshing = setImmediate(() => {
      this.refreshing = undefined;
      this.publish(false);
    });
  }

  /**
   * What a measured row describes may have changed (a package layer was built, the cache bound moved): read
   * those rows again and publish them like any live change. A request during a read reads once more after it.
   */
  remeasure(): Promise<void> {
    const measured = this.options.measured;
    if (!measured) return Promise.resolve();
    if (this.measuring) {
      this.measureAgain = true;
      return this.measuring;
    }
    this.measuring = measured()
      .then((rows) => {
        this.measuredRows = rows;
        if (this.collected) this.publish(false);
      })
      .catch((err: unknown) => this.options.log.warn(`health: could not read ${errorMessage(err)}`))
      .finally(() => {
        this.measuring = undefined;
        if (this.measureAgain) {
          this.measureAgain = false;
          void this.remeasure();
        }
      });
    return this.measuring;
  }

  /** Re-checks now if the runtime or image changed state since the last report (a run failed, say). */
  async check(): Promise<void> {
    if (this.checking || this.running || !this.collected) return;
    this.checking = true;
    try {
      const now = await this.options.quickState().catch(() => ({ runtime: false, image: false }));
      const before = { runtime: this.collected.runtime !== null, image: this.collected.image.present };
      if (now.runtime !== before.runtime || now.image !== before.image) await this.probe();
    } catch (err) {
      this.options.log.warn(`health re-check failed: ${errorMessage(err)}`);
    } finally {
      this.checking = false;
    }
  }

  /** The collected report with the live rows as they are now; a new report only when a row reads differently. */
  private publish(collectedAgain: boolean): HealthReport {
    const collected = this.collected!;
    const live = [...this.measuredRows, ...(this.options.live?.() ?? [])];
    const byId = new Map(live.map((row) => [row.id, row]));
    const checks = [...collected.checks.map((row) => byId.get(row.id) ?? row), ...live.filter((row) => !collected.checks.some((c) => c.id === row.id))];
    if (!collectedAgain && this.report && isDeepStrictEqual(checks, this.report.checks)) return this.report;
    this.report = { ...collected, checks, checkedAt: collectedAgain ? collected.checkedAt : (this.options.now ?? Date.now)(), probedAt: collected.probedAt ?? null };
    this.options.onChange(this.report);
    return this.report;
  }
}
