// Health's app rows (health/app-checks.ts): history, settings warnings and the like as checks, never deciding whether code can run.
import { describe, expect, it } from 'vitest';
import { egressCheck, historyCheck, settingsChecks } from '../../../electron/health/app-checks.js';
import { withChecks } from '../../../electron/health/with-checks.js';
import type { HealthReport } from '../../../shared/health.js';

const healthy = { available: true, file: '/h/history.db', driver: 'better-sqlite3', recovered: null, error: null, writeErrors: 0 };

describe('app health checks', () => {
  it('reports a recording history as ok, a recovered one as a warning, an unavailable one as failing', () => {
    expect(historyCheck(healthy)).toEqual({ id: 'history', label: 'Execution history', status: 'ok', detail: 'Recording to /h/history.db' });
    const recovered = historyCheck({ ...healthy, recovered: { movedTo: '/h/history.db.corrupt-x', reason: 'file is not a database' } });
    expect(recovered.status).toBe('warn');
    expect(recovered.detail).toContain('/h/history.db.corrupt-x');
    const down = historyCheck({ ...healthy, available: false, error: 'EACCES' });
    expect(down).toMatchObject({ status: 'fail', detail: 'Not recording: EACCES' });
    expect(down.hint).toContain('/h/history.db');
  });

  it('turns settings warnings into checks and never changes whether code can run safely', () => {
    expect(settingsChecks(['moved aside'])).toEqual([{ id: 'settings.0', label: 'Settings file', status: 'warn', detail: 'moved aside', hint: 'Open the settings and save them again.' }]);
    const report = { ok: true, checks: [] } as unknown as HealthReport;
    const merged = withChecks(report, [historyCheck({ ...healthy, available: false, error: 'x' }), ...settingsChecks(['w'])]);
    expect(merged.ok).toBe(true);
    expect(merged.checks.map((c) => c.id)).toEqual(['history', 'settings.0']);
  });

  it('says saved egress rules and secrets are not used yet (every sandbox still has no network), and is absent without them', () => {
    expect(egressCheck({ egress: { allow: [] }, secrets: {} })).toBeNull();
    const saved = egressCheck({ egress: { allow: ['api.example.test:443'] }, secrets: { API: { value: 'x' } } });
    expect(saved).toMatchObject({ id: 'egress', status: 'warn' });
    expect(saved?.detail).toBe('1 allow rule(s) and 1 secret(s) are saved but not used yet: this version runs every sandbox with no network.');
  });
});
