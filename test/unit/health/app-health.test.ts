// The whole report gathered in health/: the backend's own facts first (it decides `ok`), then the rooms'
// rows: history, settings warnings, packages (named by the backend's features), the log file, the service.
import { describe, expect, it } from 'vitest';
import { collectAppHealth, type HealthSources } from '../../../electron/health/app-health.js';
import { FakeBackend } from '../runs/fake-backend.js';

const sources = (backend: FakeBackend, over: Partial<HealthSources> = {}): HealthSources => ({
  backend: () => backend,
  spec: () => ({ image: 'fake:latest', limits: { memory: '512m', pids: 128, cpus: null, timeoutSec: 30, maxTimeoutSec: 120, outputCapBytes: 1024, tmpSize: '64m', workspaceSize: '128m', user: '65534:65534' } }),
  history: () => ({ available: true, file: '/h/history.db', recovered: null, writeErrors: 0, error: null }) as ReturnType<HealthSources['history']>,
  settingsWarnings: () => ['settings.json was not valid JSON; it was moved aside'],
  packages: async () => ({ index: 'http://127.0.0.1:9/simple', usage: null, lastProblem: null }),
  ...over,
});

describe('collectAppHealth', () => {
  it('puts the backend\'s report first and each room\'s row after it, the log file\'s path included', async () => {
    const report = await collectAppHealth(sources(new FakeBackend(), { logFile: '/home/me/.sandbar/logs/sandbar.log' }), { probe: false }, [{ id: 'endpoint', label: 'MCP endpoint', status: 'ok', detail: 'x' }]);
    expect(report.ok).toBe(false);
    expect(report.checks.map((c) => c.id)).toEqual(['runtime', 'history', 'settings.0', 'packages', 'logs', 'endpoint']);
    expect(report.checks.find((c) => c.id === 'logs')?.detail).toMatch(/^Writing to \/home\/me\/\.sandbar\/logs\/sandbar\.log/);
  });

  it('says packages are unavailable in the words of a backend that cannot mount them, and shows no log row without a file', async () => {
    const report = await collectAppHealth(sources(new FakeBackend({ packages: false, label: 'Cluster' })), { probe: false });
    expect(report.checks.find((c) => c.id === 'packages')?.detail).toBe('Not available with the Cluster runtime: bake packages into the image.');
    expect(report.checks.some((c) => c.id === 'logs')).toBe(false);
  });
});
