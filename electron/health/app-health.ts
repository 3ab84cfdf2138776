// The whole health report, gathered in one place: the sandbox's report from the backend in use (it decides
// `ok`), then the rows of the rooms around it (history, settings file, packages, log file) and, in a
// long-running instance, the service's own (endpoint, pool and queue, servers).
import type { HealthCheck, HealthReport } from '../../shared/health.js';
import type { HistoryHealth } from '../../shared/history.js';
import type { BackendFeatures, BackendHealth, ContainerSpec } from '../sandbox/backend.js';
import type { FolderPlan } from '../sandbox/folder-fit.js';
import { egressCheck, foldersCheck, type EgressFacts, historyCheck, logFileCheck, settingsChecks } from './app-checks.js';
import { collectHealth } from './sandbox-checks.js';
import { packagesCheck } from './service-checks.js';
import { withChecks } from './with-checks.js';

export interface HealthSources {
  /** The backend in use now (it can change with the settings). */
  backend(): { readonly features: BackendFeatures; health(spec: ContainerSpec, options: { probe: boolean }): Promise<BackendHealth> };
  /** The spec every sandbox is started with now. */
  spec(): ContainerSpec;
  history(): HistoryHealth;
  settingsWarnings(): readonly string[];
  packages(): Promise<{ index: string; usage: { layers: number; bytes: number; capBytes: number } | null; lastProblem: string | null }>;
  /** The user's folders: mounted, and refused with their rules. */
  folders?: () => FolderPlan;
  /** The egress rules and secrets in force (names and hosts only). */
  egress?: () => EgressFacts;
  /** Where this process writes its log, when it writes one (serve, desktop). */
  logFile?: string | null;
}

/** The package cache's row alone: a running instance reads it again whenever the cache may have changed. */
export async function packagesRow(sources: Pick<HealthSources, 'backend' | 'packages'>): Promise<HealthCheck> {
  const backend = sources.backend();
  return packagesCheck({ ...(await sources.packages()), ...(backend.features.packages ? {} : { unavailableOn: backend.features.label }) });
}

export async function collectAppHealth(sources: HealthSources, options: { probe: boolean }, service: readonly HealthCheck[] = []): Promise<HealthReport> {
  const report = await collectHealth(sources.backend(), sources.spec(), options);
  const packages = await packagesRow(sources);
  const folders = sources.folders ? foldersCheck(sources.folders()) : null;
  const egress = sources.egress ? egressCheck(sources.egress(), sources.backend().features) : null;
  return withChecks(report, [
    historyCheck(sources.history()),
    ...(folders ? [folders] : []),
    ...(egress ? [egress] : []),
    ...settingsChecks(sources.settingsWarnings()),
    packages,
    ...(sources.logFile ? [logFileCheck(sources.logFile)] : []),
    ...service,
  ]);
}
