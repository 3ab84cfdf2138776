// Keeps the latest health report and tells the panel and the tray when it changes. The full report
// (with the enforcement probe) runs at start, on request and after a relevant settings change; a cheap
// check every so often notices a runtime or image that went away (or came back) and re-runs it then.
import type { HealthReport } from '../../shared/health.js';
import { errorMessage } from '../../shared/errors.js';
import type { Logger } from '../logger.js';

export interface QuickState {
  runtime: boolean;
  image: boolean;
}

export interface HealthMonitorOptions {
  collect: (probe: boolean) => Promise<HealthReport>;
  /** Is the runtime still there and the image present? Must be cheap: it runs on a timer. */
  quickState: () => Promise<QuickState>;
  onChange: (report: HealthReport) => void;
  log: Logger;
  intervalMs?: number;
}

export class HealthMonitor {
  private report: HealthReport | null = null;
  private running: Promise<HealthReport> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(private readonly options: HealthMonitorOptions) {}

  get latest(): HealthReport | null {
    return this.report;
  }

  start(): void {
    void this.probe().catch((err: unknown) => this.options.log.warn(`health check failed: ${errorMessage(err)}`));
    this.timer = setInterval(() => void this.check(), this.options.intervalMs ?? 30_000);
    this.timer.unref();
  }

  dispose(): void {
    clearInterval(this.timer);
  }

  /** The full report with the probe; concurrent requests share one run. */
  probe(): Promise<HealthReport> {
    this.running ??= this.options
      .collect(true)
      .then((report) => {
        this.report = report;
        this.options.onChange(report);
        return report;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Re-checks now if the runtime or image changed state since the last report (a run failed, say). */
  async check(): Promise<void> {
    if (this.checking || this.running || !this.report) return;
    this.checking = true;
    try {
      const now = await this.options.quickState().catch(() => ({ runtime: false, image: false }));
      const before = { runtime: this.report.runtime !== null, image: this.report.image.present };
      if (now.runtime !== before.runtime || now.image !== before.image) await this.probe();
    } catch (err) {
      this.options.log.warn(`health re-check failed: ${errorMessage(err)}`);
    } finally {
      this.checking = false;
    }
  }
}
