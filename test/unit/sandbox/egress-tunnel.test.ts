// The host's end of egress frames, driven the way the agent will drive it, into the real egress proxy and
// a real HTTP upstream on 127.0.0.1: a request made of frames gets its answer back as frames; a refusal is
// the 403 body; malformed, duplicate or too many frames end the run; a burst past the open-stream bound is
// refused one connection at a time; a sandbox outrunning its upstream loses the connection, not host memory.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressBudget } from '../../../electron/egress/egress-budget.js';
import { EgressPolicy } from '../../../electron/egress/egress-policy.js';
import { EgressProxy } from '../../../electron/egress/egress-proxy.js';
import { EGRESS_CHUNK_BYTES, EgressTunnel, MAX_BUFFERED_BYTES, MAX_OPEN_STREAMS, tunnelLimits, type EgressFrame, type EgressGateway } from '../../../electron/sandbox/run/egress-tunnel.js';

let upstream: http.Server;
let upstreamPort = 0;
beforeAll(async () => {
  upstream = http.createServer((req, res) => res.end(`hello from ${req.url}`));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamPort = (upstream.address() as AddressInfo).port;
});
afterAll(() => upstream.close());

function tunnelTo(allow: string[], limits = tunnelLimits(1024 * 1024, 16)) {
  const sent: EgressFrame[] = [];
  const budget = new EgressBudget({ maxConnections: 16, maxBytes: 1024 * 1024 });
  const proxy = new EgressProxy({ policy: new EgressPolicy({ allow, deny: [] }), budget, secrets: [], resolve: async () => [] });
  const tunnel = new EgressTunnel(proxy, (f) => void sent.push(f), limits);
  return { sent, budget, tunnel };
}

const data = (id: number, text: string) => ({ type: 'egress_data', id, data: Buffer.from(text).toString('base64') });
const received = (sent: EgressFrame[], id: number) =>
  sent
    .filter((f): f is Extract<EgressFrame, { type: 'egress_data' }> => f.type === 'egress_data' && f.id === id)
    .map((f) => Buffer.from(f.data, 'base64').toString())
    .join('');

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ok(); i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
}

describe('EgressTunnel', () => {
  it('carries a proxied request and its answer as frames', async () => {
    const { sent, budget, tunnel } = tunnelTo([`127.0.0.1:${upstreamPort}`]);
    expect(tunnel.receive({ type: 'egress_open', id: 1 })).toBeNull();
    expect(tunnel.receive(data(1, `GET http://127.0.0.1:${upstreamPort}/x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`))).toBeNull();
    await until(() => sent.some((f) => f.type === 'egress_close' || f.type === 'egress_end'));
    expect(received(sent, 1)).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nhello from \/x$/);
    await until(() => budget.records.length === 1);
    expect(budget.records[0]).toMatchObject({ decision: 'allowed', status: 200, path: '/x' });
    tunnel.close();
  });

  it('brings a refusal back as the 403 body', async () => {
    const { sent, tunnel } = tunnelTo(['api.example.com']);
    tunnel.receive({ type: 'egress_open', id: 7 });
    tunnel.receive(data(7, `CONNECT 127.0.0.1:${upstreamPort} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    await until(() => received(sent, 7).includes('sandbar: egress refused:'));
    expect(received(sent, 7)).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n[\s\S]*sandbar: egress refused: 127\.0\.0\.1:\d+: not allowed\n$/);
    tunnel.close();
  });

  it('ends the run on a bad frame, a reopened id, or more frames than the run may send', () => {
    const { tunnel } = tunnelTo(['api.example.com'], { maxFrames: 5 });
    expect(tunnel.receive({ type: 'egress_open', id: 'x' })).toMatch(/valid connection id/);
    expect(tunnel.receive({ type: 'egress_open', id: 2 })).toBeNull();
    expect(tunnel.receive({ type: 'egress_open', id: 2 })).toMatch(/opened twice/);
    expect(tunnel.receive({ type: 'egress_data', id: 2, data: 'A'.repeat(EGRESS_CHUNK_BYTES * 2) })).toMatch(/at most one chunk/);
    expect(tunnel.receive({ type: 'egress_close', id: 2 })).toBeNull();
    expect(tunnel.receive({ type: 'egress_close', id: 2 })).toMatch(/more egress frames than a run may \(at most 5\)/);
    tunnel.close();
  });

  it('refuses connections past the open-stream bound without ending the run, and closes all at the end', () => {
    const accepted: Duplex[] = [];
    const gateway: EgressGateway = { accept: (s) => accepted.push(s), close: () => {} };
    const sent: EgressFrame[] = [];
    const tunnel = new EgressTunnel(gateway, (f) => void sent.push(f), { maxFrames: 1000 });
    for (let id = 1; id <= MAX_OPEN_STREAMS + 3; id += 1) expect(tunnel.receive({ type: 'egress_open', id })).toBeNull();
    expect(accepted).toHaveLength(MAX_OPEN_STREAMS);
    expect(sent.map((f) => f.id)).toEqual([MAX_OPEN_STREAMS + 1, MAX_OPEN_STREAMS + 2, MAX_OPEN_STREAMS + 3]);
    tunnel.close();
    expect(accepted.every((s) => s.destroyed)).toBe(true);
    expect(tunnel.open).toBe(0);
  });

  it('cuts a connection whose unread bytes from the sandbox pass the buffer bound', () => {
    const accepted: Duplex[] = [];
    const sent: EgressFrame[] = [];
    const tunnel = new EgressTunnel({ accept: (s) => accepted.push(s), close: () => {} }, (f) => void sent.push(f), { maxFrames: 10_000 });
    tunnel.receive({ type: 'egress_open', id: 1 });
    const chunk = Buffer.alloc(EGRESS_CHUNK_BYTES).toString('base64');
    for (let i = 0; i <= MAX_BUFFERED_BYTES / EGRESS_CHUNK_BYTES; i += 1) expect(tunnel.receive({ type: 'egress_data', id: 1, data: chunk })).toBeNull();
    expect(accepted[0]!.destroyed).toBe(true);
    expect(sent).toEqual([{ type: 'egress_close', id: 1 }]);
  });
});
