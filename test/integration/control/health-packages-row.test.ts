// Health's packages row is live like the pool's: it changes when the package cache's bound changes and when
// a run's packages could not be fetched, pushed as health.changed without a probe (the probe's time stays).
// The index is a closed port on this machine, so the fetch fails at once and no container starts.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthReport } from '../../../shared/health.js';
import { sandbox, waitFor } from '../helpers.js';
import { httpCaller, startTestApp, type ApiCaller, type TestApp } from './control-helpers.js';

/** A loopback port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
const packagesRow = (report: HealthReport) => report.checks.find((c) => c.id === 'packages');

describe.skipIf(!sandbox.available)("Health's packages row", () => {
  let t: TestApp;
  let api: ApiCaller;
  let INDEX = '';
  beforeAll(async () => {
    INDEX = `http://127.0.0.1:${await closedPort()}/simple/`;
    t = await startTestApp({ packageIndex: INDEX });
    api = await httpCaller(t);
  });
  afterAll(async () => {
    api?.close();
    await t?.close();
  });

  it('follows the cache bound and a failed fetch, with no probe in between', async () => {
    expect(await waitFor(async () => (await api.value('health.get', {})) !== null, 60_000)).toBe(true);
    const first = (await api.value('health.get', {}))!;
    expect(packagesRow(first)).toMatchObject({ status: 'ok', detail: `Index ${INDEX}; cache 0 layers, 0 MB of 2048 MB.` });

    await api.value('settings.update', { patch: { packageCacheMB: 777 } });
    const bound = await api.next('health.changed', (r) => packagesRow(r)?.detail.includes('of 777 MB') ?? false);
    expect(bound.probedAt).toBe(first.probedAt);

    await expect(t.app.core.runs.start({ code: 'print(1)', packages: ['six==1.16.0'] }, { client: { name: 'health-test' } })).rejects.toThrow(/the package index is unreachable/);
    const failed = await api.next('health.changed', (r) => packagesRow(r)?.status === 'warn');
    expect(packagesRow(failed)!.detail).toContain(`Index ${INDEX}; cache 0 layers, 0 MB of 777 MB. Last fetch problem: `);
    expect(failed.probedAt).toBe(first.probedAt);
    // health.get answers the same row: one report.
    expect(packagesRow((await api.value('health.get', {}))!)).toEqual(packagesRow(failed));
  });
});
