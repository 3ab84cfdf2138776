// Health checks of the app around the engine: the history database and the settings file. They inform;
// they never make the report unsafe (running code safely does not depend on them).
import type { HealthCheck } from '../../shared/health.js';
import type { HistoryHealth } from '../../shared/history.js';
import type { FolderPlan } from '../sandbox/folder-fit.js';

export function historyCheck(history: HistoryHealth): HealthCheck {
  const base = { id: 'history', label: 'Execution history' };
  if (!history.available) {
    return { ...base, status: 'fail', detail: `Not recording: ${history.error ?? 'the database did not open'}`, hint: `Check that ${history.file} is writable; runs still work without history.` };
  }
  if (history.recovered) {
    return {
      ...base,
      status: 'warn',
      detail: `The database was damaged (${history.recovered.reason}); it was moved to ${history.recovered.movedTo} and a fresh one was started.`,
      hint: 'Nothing to do; the old file is kept in case you want to inspect it.',
    };
  }
  if (history.writeErrors > 0) {
    return { ...base, status: 'warn', detail: `${history.writeErrors} events could not be recorded: ${history.error ?? ''}`.trim(), hint: 'Check free disk space.' };
  }
  return { ...base, status: 'ok', detail: `Recording to ${history.file}` };
}

export function settingsChecks(warnings: readonly string[]): HealthCheck[] {
  return warnings.map((detail, i) => ({ id: `settings.${i}`, label: 'Settings file', status: 'warn', detail, hint: 'Open the settings and save them again.' }));
}

/** Where the log is written (`Open logs` in the tray opens the folder). */
export function logFileCheck(file: string): HealthCheck {
  return { id: 'logs', label: 'Log file', status: 'ok', detail: `Writing to ${file} (rotated by size; tokens and secrets are never written)` };
}

/**
 * The user's folders: those mounted (and how), and each refused one with the rule that refused it. A refused
 * folder is amber: the others still work, but the person asked for one the sandbox does not get.
 */
export function foldersCheck(plan: FolderPlan): HealthCheck | null {
  if (plan.mounts.length === 0 && plan.refused.length === 0) return null;
  const base = { id: 'folders', label: 'Folders' };
  const mounted = plan.mounts.map((m) => `${m.source} at ${m.target} (${m.writable ? 'writable' : 'read-only'})`).join('; ');
  const shown = mounted ? `Mounted in every sandbox, never executable: ${mounted}.` : 'No folder is mounted.';
  if (plan.refused.length === 0) return { ...base, status: 'ok', detail: shown };
  const refused = plan.refused.map((r) => `${r.name} (${r.path}) ${r.reason}`).join('; ');
  return { ...base, status: 'warn', detail: `Refused, not mounted: ${refused}. ${shown}`, hint: 'Choose another folder for each refused one in the settings (Limits › Folders), or remove it.' };
}

/**
 * Egress rules and secrets can be saved, but no run uses them yet (the in-sandbox end of the tunnel is not
 * built): every sandbox still has no network. Said in Health so nobody waits for a host that will not answer.
 */
export function egressCheck(settings: { egress: { allow: readonly unknown[] }; secrets: Readonly<Record<string, unknown>> }): HealthCheck | null {
  const rules = settings.egress.allow.length;
  const secrets = Object.keys(settings.secrets).length;
  if (rules === 0 && secrets === 0) return null;
  return {
    id: 'egress',
    label: 'Egress',
    status: 'warn',
    detail: `${rules} allow rule(s) and ${secrets} secret(s) are saved but not used yet: this version runs every sandbox with no network.`,
    hint: 'Nothing to do; a later version carries allowed requests through the host. Until then, code that needs a host cannot reach it.',
  };
}
