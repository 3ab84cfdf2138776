// Health checks of the app around the engine: the history database, the settings file, the log, folders and
// egress. They inform; they never make the report unsafe (running code safely does not depend on them).
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

/** What the egress row reads from the settings: the rules and each secret's hosts (never a value). */
export interface EgressFacts {
  egress: { allow: readonly unknown[]; deny: readonly unknown[] };
  secrets: Readonly<Record<string, { hosts: readonly unknown[] }>>;
  /** Secrets that cannot be used now, in words (egress-secrets.ts resolveSecrets), never with a value. */
  secretProblems?: readonly string[];
}

/**
 * Egress through the host. With `allow` empty there is no proxy: an ok "off" row (every sandbox has no
 * network). With rules, the row says plainly that isolation is weaker (amber): code can send data to the
 * allowed hosts, and HTTPS to a secret's hosts is decrypted on this computer with this instance's own CA,
 * which every sandbox trusts. On a backend that cannot carry it, the rules are saved but unused. Always a
 * row, so a running instance can recompute it as a live row when the settings change.
 */
export function egressCheck(settings: EgressFacts, backend: { egress: boolean; label: string }): HealthCheck {
  const rules = settings.egress.allow.length;
  const denied = settings.egress.deny.length;
  const names = Object.keys(settings.secrets);
  const secrets = names.length === 0 ? 'no secrets' : `${names.length} secret${names.length === 1 ? '' : 's'} (${names.join(', ')})`;
  const base = { id: 'egress', label: 'Egress' };
  if (rules === 0) {
    const unused = names.length === 0 ? '' : ` ${secrets} saved but sent nowhere until their hosts are allowed.`;
    return { ...base, status: 'ok', detail: `Off: sandboxes have no network.${unused}` };
  }
  const ruleWords = `${rules} allow rule${rules === 1 ? '' : 's'}${denied > 0 ? ` and ${denied} deny rule${denied === 1 ? '' : 's'}` : ''}`;
  if (!backend.egress) {
    return {
      ...base,
      status: 'warn',
      detail: `${ruleWords} saved, but ${backend.label} cannot carry egress: sandboxes have no network.`,
      hint: 'Code that needs a host cannot reach it on this backend. Remove the rules (Limits › Egress) or use a backend that supports egress.',
    };
  }
  const intercepted =
    names.length === 0
      ? 'HTTPS is tunnelled, never decrypted.'
      : `HTTPS to the hosts of ${secrets} is decrypted on this computer with this instance's own CA (every sandbox trusts it) so the secret can be added; the secret's value never enters a sandbox.`;
  const problems = settings.secretProblems ?? [];
  const unusable = problems.length === 0 ? '' : ` Not added to any request: ${problems.join('; ')}.`;
  return {
    ...base,
    status: 'warn',
    detail: `On, isolation weakened: sandboxes can reach the network through this computer for ${ruleWords}. Code can send data to those hosts. ${intercepted}${unusable}`,
    hint:
      problems.length === 0
        ? 'Each connection is checked and recorded in its run. Remove every allow rule (Limits › Egress) to give sandboxes no network again.'
        : 'Fix each secret named above in the settings file (its value, variable or file); until then its hosts get no header. Each connection is checked and recorded in its run.',
  };
}
