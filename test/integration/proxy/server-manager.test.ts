// The supervisor on its own, with real server processes: start-up timeout, policy, and state events.
import { afterEach, describe, expect, it } from 'vitest';
import { ServerManager } from '../../../electron/proxy/server-manager.js';
import type { EngineEvent } from '../../../shared/execution.js';
import { EVERYTHING, STUB, stdioServer } from './proxy-helpers.js';

describe('ServerManager', () => {
  const managers: ServerManager[] = [];
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.dispose()));
  });

  function manager(startTimeoutMs = 10_000, deny: string[] = []) {
    const events: Extract<EngineEvent, { type: 'serverStateChanged' | 'toolCall' }>[] = [];
    const m = new ServerManager({ startTimeoutMs, callTimeoutMs: 30_000, version: 'test', policy: (n) => (deny.includes(n) ? 'deny' : 'allow'), publish: (e) => events.push(e) });
    managers.push(m);
    return { m, events };
  }

  it('gives up on a server that does not answer within the start-up timeout, and says so', async () => {
    const { m, events } = manager(1500);
    m.setDiscovery({ servers: [stdioServer('slow', process.execPath, [STUB], { env: { STUB_START_DELAY_MS: '20000' } })], problems: [], skipped: [] });
    const started = Date.now();
    await expect(m.prepare(['slow'])).rejects.toThrow("MCP server 'slow' failed to start: did not answer within 1.5s");
    expect(Date.now() - started).toBeLessThan(4000);
    expect(events.map((e) => e.type === 'serverStateChanged' && e.state)).toEqual(['starting', 'crashed']);
    expect(m.status()[0]).toMatchObject({ name: 'slow', state: 'crashed', lastError: 'did not answer within 1.5s' });
  });

  it('describes servers with their tools, hides denied ones, and stops a server whose config changed', async () => {
    const { m } = manager(15_000, ['hidden']);
    const everything = stdioServer('everything', EVERYTHING, ['stdio']);
    m.setDiscovery({ servers: [everything, stdioServer('hidden', EVERYTHING, ['stdio'])], problems: [], skipped: [] });
    expect(m.unknown(['everything', 'hidden', 'nope'])).toEqual(['hidden', 'nope']);
    const ctx = await m.prepare(['everything']);
    expect(ctx.discovered.map((d) => d.name)).toEqual(['everything']);
    expect(ctx.loaded[0]!.tools.map((t) => t.name)).toContain('echo');
    expect(m.status().find((s) => s.name === 'everything')).toMatchObject({ state: 'ready', policy: 'allow' });
    expect(m.status().find((s) => s.name === 'hidden')).toMatchObject({ state: 'stopped', policy: 'deny' });
    m.setDiscovery({ servers: [{ ...everything, args: ['stdio', '--changed'] }], problems: [], skipped: [] });
    expect(m.status()[0]).toMatchObject({ state: 'stopped', toolCount: null });
  });
});
