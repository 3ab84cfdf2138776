// The one way a check joins the health report: the sandbox's own checks (sandbox-checks.ts) decide `ok`;
// every other room's checks (app-checks.ts: history, settings; service-checks.ts: endpoint, pool,
// servers) are rows added here, after them, and never change whether code can run safely.
import type { HealthCheck, HealthReport } from '../../shared/health.js';

export function withChecks(report: HealthReport, checks: readonly HealthCheck[]): HealthReport {
  return { ...report, checks: [...report.checks, ...checks] };
}
