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

  it('egress off: an ok row saying sandboxes have no network, naming secrets that go nowhere', () => {
    const podman = { egress: true, label: 'Podman' };
    expect(egressCheck({ egress: { allow: [], deny: ['x.example'] }, secrets: {} }, podman)).toEqual({ id: 'egress', label: 'Egress', status: 'ok', detail: 'Off: sandboxes have no network.' });
    const off = egressCheck({ egress: { allow: [], deny: [] }, secrets: { API: { hosts: ['api.example.test'] } } }, podman);
    expect(off).toMatchObject({ id: 'egress', status: 'ok' });
    expect(off?.detail).toBe('Off: sandboxes have no network. 1 secret (API) saved but sent nowhere until their hosts are allowed.');
  });

  it('egress on: amber, says isolation is weakened, counts the rules, names the secrets and the interception with the instance CA', () => {
    const on = egressCheck({ egress: { allow: ['api.example.test:443', '*.example.org'], deny: ['evil.example.org'] }, secrets: { API: { hosts: ['api.example.test'] }, GH: { hosts: ['x.example'] } } }, { egress: true, label: 'Podman' });
    expect(on).toMatchObject({ id: 'egress', label: 'Egress', status: 'warn' });
    expect(on?.detail).toMatch(/^On, isolation weakened: sandboxes can reach the network through this computer for 2 allow rules and 1 deny rule\. Code can send data to those hosts\./);
    expect(on?.detail).toContain("HTTPS to the hosts of 2 secrets (API, GH) is decrypted on this computer with this instance's own CA (every sandbox trusts it)");
    expect(on?.hint).toContain('Remove every allow rule');
    // The settings' values never reach the row: only names and counts.
    expect(JSON.stringify(on)).not.toContain('api.example.test');
    const plain = egressCheck({ egress: { allow: ['api.example.test'], deny: [] }, secrets: {} }, { egress: true, label: 'Podman' });
    expect(plain?.detail).toContain('1 allow rule. Code can send data to those hosts. HTTPS is tunnelled, never decrypted.');
  });

  it('egress on with a secret that cannot be used: the row names it and how to fix it, never a value', () => {
    const row = egressCheck(
      { egress: { allow: ['api.example.test'], deny: [] }, secrets: { API: { hosts: ['api.example.test'] } }, secretProblems: ["secret API: the variable API_TOKEN is not set in Sandbar's environment"] },
      { egress: true, label: 'Podman' },
    );
    expect(row.detail).toContain("Not added to any request: secret API: the variable API_TOKEN is not set in Sandbar's environment.");
    expect(row.hint).toMatch(/^Fix each secret named above in the settings file/);
  });

  it('egress rules on a backend that cannot carry them: saved, unused, and said so', () => {
    const unused = egressCheck({ egress: { allow: ['api.example.test'], deny: [] }, secrets: {} }, { egress: false, label: 'Kubernetes' });
    expect(unused).toMatchObject({ status: 'warn', detail: '1 allow rule saved, but Kubernetes cannot carry egress: sandboxes have no network.' });
  });
});
