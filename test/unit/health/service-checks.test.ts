// Health's service rows (health/service-checks.ts): the endpoint, the warm pool and the user's MCP servers, in words and states.
import { describe, expect, it } from 'vitest';
import { endpointCheck, poolCheck, serversCheck } from '../../../electron/health/service-checks.js';
import type { ServerView } from '../../../shared/contract.js';

const server = (name: string, state: ServerView['state'], extra: Partial<ServerView> = {}): ServerView => ({
  name,
  source: '/home/u/MCPs/x.json',
  transport: 'stdio',
  description: '',
  policy: 'allow',
  state,
  toolCount: null,
  lastError: null,
  ...extra,
});

describe('service health rows', () => {
  it('endpoint: ok with the URL; fail with the reason and a hint when not listening; warn after a failed move', () => {
    const ok = endpointCheck({ url: 'http://127.0.0.1:7337/mcp', port: 7337, listening: true, error: null, tokenFile: '/t', panelTokenFile: '/p', sessions: 1 });
    expect(ok).toMatchObject({ status: 'ok', detail: 'Listening at http://127.0.0.1:7337/mcp' });
    // Nothing in the row that changes without an event (MCP client sessions come and go unannounced).
    expect(endpointCheck({ url: 'http://127.0.0.1:7337/mcp', port: 7337, listening: true, error: null, tokenFile: '/t', panelTokenFile: '/p', sessions: 5 })).toEqual(ok);
    const down = endpointCheck({ url: null, port: 7337, listening: false, error: 'Port 7337 on 127.0.0.1 is already in use.', tokenFile: '/t', panelTokenFile: '/p', sessions: 0 });
    expect(down).toMatchObject({ status: 'fail', detail: 'Port 7337 on 127.0.0.1 is already in use.' });
    expect(down.hint).toMatch(/free port/);
    const moved = endpointCheck({ url: 'http://127.0.0.1:7337/mcp', port: 7337, listening: true, error: 'Port 80 is in use. Still listening on port 7337.', tokenFile: '/t', panelTokenFile: '/p', sessions: 0 });
    expect(moved.status).toBe('warn');
  });

  it('pool: counts, off when size 0, warn with the start failure, warn while paused', () => {
    expect(poolCheck({ size: 2, ready: 1, starting: 1, lastError: null, refilling: false }, { running: 3, queued: 2, paused: false })).toMatchObject({
      status: 'ok',
      detail: 'Pool 1 of 2 containers ready, 1 starting. 3 running, 2 queued',
    });
    expect(poolCheck({ size: 0, ready: 0, starting: 0, lastError: null, refilling: false }, { running: 0, queued: 0, paused: false }).detail).toMatch(/off/);
    const failing = poolCheck({ size: 2, ready: 0, starting: 0, lastError: 'image missing', refilling: false }, { running: 0, queued: 0, paused: false });
    expect(failing).toMatchObject({ status: 'warn' });
    expect(failing.detail).toContain('image missing');
    expect(poolCheck({ size: 1, ready: 1, starting: 0, lastError: null, refilling: false }, { running: 0, queued: 0, paused: true }).status).toBe('warn');
  });

  it('pool: a pool that follows the load shows its target, bounds, waiting calls and refill rate; size 0 with room to grow is not off', () => {
    const grown = poolCheck({ size: 5, ready: 3, starting: 2, lastError: null, refilling: false, min: 2, max: 8, waiting: 1, refillsPerMin: 14 }, { running: 4, queued: 0, paused: false });
    expect(grown.detail).toBe('Pool 3 of 5 containers ready, 2 starting; target 5 (grows 2–8 with load), 1 waiting for one, 14 made ready in the last minute. 4 running, 0 queued');
    expect(poolCheck({ size: 0, ready: 0, starting: 0, lastError: null, refilling: false, min: 0, max: 4 }, { running: 0, queued: 0, paused: false }).detail).not.toMatch(/off/);
  });

  it('servers: a summary by state and policy; crashed ones named with their error', () => {
    expect(serversCheck([]).status).toBe('ok');
    const fine = serversCheck([server('a', 'ready'), server('b', 'stopped', { policy: 'deny' })]);
    expect(fine).toMatchObject({ status: 'ok', detail: '2 discovered: 1 ready, 0 starting, 1 not started yet, 0 crashed; 1 denied.' });
    const bad = serversCheck([server('a', 'ready'), server('gh', 'crashed', { lastError: 'exit code 1' })]);
    expect(bad.status).toBe('warn');
    expect(bad.detail).toContain('gh (exit code 1)');
    expect(bad.hint).toMatch(/Servers view/);
  });
});
