// Settings apply without a restart: a limits change drains the warm pool and refills it with containers
// made to the new limits (and the next run gets them); a port change moves only the HTTP listener.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containersOf, runtimeBinary, sandbox, waitFor } from '../helpers.js';
import { httpCaller, startTestApp, type ApiCaller, type TestApp } from './control-helpers.js';

function memoryLimitOf(container: string): number {
  return Number(execFileSync(runtimeBinary(), ['inspect', '--format', '{{.HostConfig.Memory}}', container], { encoding: 'utf8' }).trim());
}

describe.skipIf(!sandbox.available)('settings applied live', () => {
  let t: TestApp;
  let api: ApiCaller;

  beforeAll(async () => {
    t = await startTestApp({ poolSize: 1 });
    api = await httpCaller(t);
    // The start-up probe has its own container; wait for it so only pool containers remain.
    expect(await waitFor(async () => (await api.value('health.get', {})) !== null, 60_000)).toBe(true);
  });
  afterAll(async () => {
    api?.close();
    await t?.close();
  });

  it('a memory change drains the pool, refills it with the new limit, and the next run is held to it', async () => {
    const owner = t.app.core.engine.owner.instanceId;
    expect(await waitFor(() => t.app.core.engine.snapshot().pool.ready === 1, 60_000)).toBe(true);
    const [before] = containersOf(owner);
    expect(memoryLimitOf(before!)).toBe(512 * 1024 ** 2);

    // A change that leaves containers as they are (the default timeout) is not a refill.
    await api.value('settings.update', { patch: { limits: { timeoutSec: 20 } } });
    expect(t.app.core.engine.snapshot().pool.refilling).toBe(false);
    await api.value('settings.update', { patch: { limits: { memory: '256m' } } });
    // The panel sees the refill as the server owns it: refilling while a container starts, then not.
    await api.next('live.changed', (e) => e.pool.refilling && e.pool.starting > 0);
    expect(await waitFor(() => t.app.core.engine.snapshot().pool.ready === 1 && !containersOf(owner).includes(before!), 60_000)).toBe(true);
    expect(t.app.core.engine.snapshot().pool.refilling).toBe(false);
    await api.next('live.changed', (e) => !e.pool.refilling && e.pool.ready === 1);
    const [after] = containersOf(owner);
    expect(memoryLimitOf(after!)).toBe(256 * 1024 ** 2);

    const run = await t.app.core.engine.submit({ code: 'print(open("/sys/fs/cgroup/memory/memory.limit_in_bytes").read().strip() if __import__("os").path.exists("/sys/fs/cgroup/memory/memory.limit_in_bytes") else open("/sys/fs/cgroup/memory.max").read().strip())' }).result;
    expect(run.exitReason).toBe('success');
    expect(Number(run.stdout.trim())).toBe(256 * 1024 ** 2);
    expect(run.limits.memory).toBe('256m');
  });

  it('a port change moves the listener: the old port stops answering, the new one serves MCP and the API', async () => {
    const oldPort = t.app.endpoint.port;
    const engine = t.app.core.engine;
    const poolBefore = engine.snapshot().pool;
    const free = await new Promise<number>((resolve) => {
      void import('node:net').then(({ createServer }) => {
        const s = createServer().listen(0, '127.0.0.1', () => {
          const port = (s.address() as { port: number }).port;
          s.close(() => resolve(port));
        });
      });
    });
    await api.value('settings.update', { patch: { httpPort: free } });
    // Told on the old connection before it closes, so a panel can follow the move.
    const moved = await api.next('endpoint.changed', (e) => e.port === free);
    expect(moved).toMatchObject({ listening: true, url: `http://127.0.0.1:${free}/mcp`, error: null });
    api.close();
    api = await httpCaller(t);
    // Nothing of ours answers on the old port any more (in a busy test run another server may take it).
    const old = await fetch(`http://127.0.0.1:${oldPort}/api/call/endpoint.info`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token()}`, 'content-type': 'application/json' },
      body: '{}',
    }).then((r) => r.status, () => 'refused');
    expect(old).not.toBe(200);
    const res = await fetch(`http://127.0.0.1:${free}/api/call/endpoint.info`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token()}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    // The engine was not restarted: the same engine, its pool untouched by the move (its target follows the
    // load of the test before, so it is compared with itself, not with poolSize).
    expect(t.app.core.engine).toBe(engine);
    expect(engine.snapshot().pool).toMatchObject({ size: poolBefore.size, min: poolBefore.min, max: poolBefore.max });
  });

  it('a port that is taken leaves the listener where it was and says why', async () => {
    const current = t.app.endpoint.port;
    const { createServer } = await import('node:net');
    const blocker = createServer();
    const taken = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)));
    try {
      const fresh = await httpCaller(t);
      await fresh.value('settings.update', { patch: { httpPort: taken } });
      const info = await fresh.next('endpoint.changed', (e) => e.error !== null);
      expect(info.error).toMatch(new RegExp(`Port ${taken} .* in use.*Still listening on port ${current}`));
      expect(t.app.endpoint.port).toBe(current);
      fresh.close();
    } finally {
      blocker.close();
    }
  });
});
