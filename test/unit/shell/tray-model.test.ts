// The tray's state, tooltip and menu as a function of live counts, health and the endpoint.
import { describe, expect, it } from 'vitest';
import type { HealthCheck } from '../../../shared/health.js';
import {
  INITIAL_TRAY_INPUT,
  trayMenu,
  trayState,
  trayTooltip,
  type TrayHealth,
  type TrayInput,
} from '../../../electron/shell/tray-model.js';

const ok: TrayHealth = { kind: 'report', report: { ok: true, checks: [] } };
const check = (over: Partial<HealthCheck>): HealthCheck => ({ id: 'x', label: 'Check', status: 'ok', detail: '', ...over });
const input = (over: Partial<TrayInput>): TrayInput => ({
  live: { paused: false, running: 0, queued: 0 },
  health: ok,
  endpointUrl: 'http://127.0.0.1:7337/mcp',
  approvals: [],
  ...over,
});

describe('trayState', () => {
  it('is ready when healthy and idle, busy while code runs', () => {
    expect(trayState(input({}))).toBe('ready');
    expect(trayState(input({ live: { paused: false, running: 2, queued: 1 } }))).toBe('busy');
    expect(trayState(input({ live: { paused: false, running: 0, queued: 3 } }))).toBe('ready');
  });

  it('is broken when health is not ok (runtime missing, image missing, a limit not enforced)', () => {
    const runtimeGone: TrayHealth = {
      kind: 'report',
      report: { ok: false, checks: [check({ id: 'runtime', label: 'Container runtime', status: 'fail', detail: 'podman not found' })] },
    };
    expect(trayState(input({ health: runtimeGone }))).toBe('broken');
    // Broken wins over busy: the tray must not look fine while the sandbox is not.
    expect(trayState(input({ health: runtimeGone, live: { paused: false, running: 1, queued: 0 } }))).toBe('broken');
  });

  it('is broken when health could not be obtained, and not while it is still unknown', () => {
    expect(trayState(input({ health: { kind: 'failed', message: 'probe crashed' } }))).toBe('broken');
    expect(trayState(input({ health: { kind: 'unknown' } }))).toBe('ready');
    expect(trayState(INITIAL_TRAY_INPUT)).toBe('ready');
  });
});

describe('trayTooltip', () => {
  it('says ready, running counts and paused', () => {
    expect(trayTooltip(input({}))).toBe('Sandbar: Ready');
    expect(trayTooltip(input({ live: { paused: true, running: 1, queued: 2 } }))).toBe('Sandbar: Running code · 1 running, 2 queued · new runs paused');
  });

  it('names the first failing check when broken', () => {
    const health: TrayHealth = {
      kind: 'report',
      report: {
        ok: false,
        checks: [
          check({ status: 'warn', label: 'Rootless', detail: 'running as root' }),
          check({ status: 'fail', label: 'Memory limit', detail: 'not enforced (cgroup v1 rootless)' }),
        ],
      },
    };
    expect(trayTooltip(input({ health }))).toBe('Sandbar: Not ready: Memory limit: not enforced (cgroup v1 rootless)');
  });

  it('stays within 127 characters', () => {
    const health: TrayHealth = { kind: 'report', report: { ok: false, checks: [check({ status: 'fail', label: 'Image', detail: 'x'.repeat(300) })] } };
    const tip = trayTooltip(input({ health }));
    expect(tip.length).toBeLessThanOrEqual(127);
    expect(tip.endsWith('…')).toBe(true);
  });
});

describe('trayMenu', () => {
  const labels = (i: TrayInput) => trayMenu(i).map((item) => (item.type === 'separator' ? '---' : item.label));

  it('has its entries in order, with the counts, the pause label and the logs', () => {
    expect(labels(input({ live: { paused: false, running: 1, queued: 0 } }))).toEqual([
      'Open Sandbar',
      '---',
      'Running code',
      '1 running, 0 queued',
      '---',
      'Copy endpoint URL',
      'Pause new runs',
      'Open logs',
      '---',
      'Quit Sandbar',
    ]);
    expect(labels(input({ live: { paused: true, running: 0, queued: 0 } }))).toContain('Resume new runs');
  });

  it('disables copy without an endpoint and pause before the live state is known', () => {
    const menu = trayMenu(INITIAL_TRAY_INPUT);
    expect(menu.find((i) => i.type === 'action' && i.action === 'copyEndpoint')).toMatchObject({ enabled: false });
    expect(menu.find((i) => i.type === 'action' && i.action === 'togglePause')).toMatchObject({ enabled: false, label: 'Pause new runs' });
    expect(menu.find((i) => i.type === 'action' && i.action === 'quit')).toMatchObject({ enabled: true });
    expect(labels(INITIAL_TRAY_INPUT)).toContain('Starting…');
    expect(labels(INITIAL_TRAY_INPUT)).toContain('Checking the container runtime…');
  });
});
