// The panel's routes and its overall status (renderer/app/routes.ts, overall-status.ts).
import { describe, expect, it } from 'vitest';
import { historyDetailHref, parseRoute, routeHref } from '../../../../renderer/app/routes.js';
import { overallStatus } from '../../../../renderer/app/overall-status.js';

describe('routes', () => {
  it('parses every view and defaults to Live', () => {
    for (const view of ['live', 'limits', 'health', 'history', 'servers', 'clients'] as const) expect(parseRoute(`#/${view}`)).toEqual({ view });
    expect(parseRoute('')).toEqual({ view: 'live' });
    expect(parseRoute('#/nowhere')).toEqual({ view: 'live' });
    expect(parseRoute('#token=abc')).toEqual({ view: 'live' });
  });

  it('round-trips a history detail id, whatever characters it has', () => {
    const id = 'run/1 ä?&';
    expect(historyDetailHref(id)).toBe(`#/history/${encodeURIComponent(id)}`);
    expect(parseRoute(historyDetailHref(id))).toEqual({ view: 'history', id });
    expect(routeHref({ view: 'limits' })).toBe('#/limits');
  });
});

describe('overallStatus', () => {
  const healthy = { ok: true, checks: [] } as never;
  const base = { connection: 'open' as const, health: healthy, endpoint: null, running: 0, queued: 0 };

  it('is ready when healthy and idle, busy while runs go', () => {
    expect(overallStatus(base).state).toBe('ready');
    expect(overallStatus({ ...base, running: 1 }).state).toBe('busy');
  });

  it('is broken when health fails or the endpoint is down, naming how many checks failed', () => {
    const broken = overallStatus({ ...base, health: { ok: false, checks: [{ status: 'fail' }, { status: 'fail' }, { status: 'warn' }] } as never });
    expect(broken).toEqual({ state: 'broken', text: 'Not safe: 2 checks failed' });
    expect(overallStatus({ ...base, endpoint: { listening: false } as never }).state).toBe('broken');
  });

  it('puts the connection first', () => {
    expect(overallStatus({ ...base, connection: 'reconnecting' }).text).toBe('Reconnecting…');
    expect(overallStatus({ ...base, connection: 'unauthorized' }).state).toBe('offline');
  });
});
