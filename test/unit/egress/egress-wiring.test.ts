// The host side of egress wiring without containers: the agent's egress frames parsed as such, one proxy per
// run from the settings (none while allow is empty; the CA's key 0600 in the home; placeholders, never values;
// an unreadable egressCaFile refused in words), a backend without egress refusing the run, refused lines in
// the result text (and nothing else changed), and records kept in history (schema v9) and read back.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EgressRecord } from '../../../shared/egress-audit.js';
import type { EngineEvent } from '../../../shared/execution.js';
import { EgressBudget } from '../../../electron/egress/egress-budget.js';
import { EgressPolicy } from '../../../electron/egress/egress-policy.js';
import { EgressProxy } from '../../../electron/egress/egress-proxy.js';
import { EgressRuns, type EgressRunSettings } from '../../../electron/egress/egress-runs.js';
import { runEgressOf } from '../../../electron/sandbox/engine-config.js';
import { interpretFrame } from '../../../electron/sandbox/run/frame-parser.js';
import { runToolResult } from '../../../electron/mcp/tool-result.js';
import { SCHEMA_VERSION } from '../../../electron/history/migrations.js';
import { openStore, runEvents, tempDir } from '../history/helpers.js';

const home = mkdtempSync(path.join(tmpdir(), 'sandbar-egress-wiring-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const settings = (over: Partial<EgressRunSettings> = {}): EgressRunSettings => ({
  egress: { allow: ['127.0.0.1:9'], deny: [] },
  secrets: { API_KEY: { value: 'the-real-value', hosts: ['api.example.com'], header: 'Authorization: Bearer {secret}' } },
  egressCaFile: null,
  egressMaxBytes: 1024 * 1024,
  egressMaxConnections: 10,
  ...over,
});

const records: EgressRecord[] = [
  { host: '127.0.0.1', port: 9, decision: 'allowed', bytesOut: 10, bytesIn: 20, method: 'GET', path: '/x', status: 200 },
  { host: 'evil.example', port: 443, decision: 'denied', reason: 'not allowed', bytesOut: 0, bytesIn: 0, method: 'CONNECT' },
];

describe('the end of a run', () => {
  it('ends the upstream side of a request still waiting for its answer (not at the idle timeout)', async () => {
    let upstreamClosed = false;
    const hanging = http.createServer((req) => req.socket.once('close', () => (upstreamClosed = true)));
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const port = (hanging.address() as AddressInfo).port;
    const budget = new EgressBudget({ maxConnections: 5, maxBytes: 1_000_000 });
    const proxy = new EgressProxy({ policy: new EgressPolicy({ allow: [`127.0.0.1:${port}`], deny: [] }), budget, secrets: [], resolve: async () => [] });
    const front = net.createServer((socket) => proxy.accept(socket));
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    try {
      const client = net.connect((front.address() as AddressInfo).port, '127.0.0.1');
      client.on('error', () => {});
      client.write(`GET http://127.0.0.1:${port}/slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      for (let i = 0; i < 300 && (await new Promise<number>((r) => hanging.getConnections((_e, n) => r(n)))) === 0; i++) await new Promise((r) => setTimeout(r, 10));
      proxy.close(); // the run ended
      for (let i = 0; i < 300 && !upstreamClosed; i++) await new Promise((r) => setTimeout(r, 10));
      expect(upstreamClosed).toBe(true);
      expect(budget.records).toEqual([expect.objectContaining({ path: '/slow', decision: 'allowed' })]);
    } finally {
      front.close();
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});

describe('egress frames from the agent', () => {
  it('are egress frames (for the tunnel), never output, whatever their fields', () => {
    for (const type of ['egress_open', 'egress_data', 'egress_end', 'egress_close']) {
      const line = JSON.stringify({ type, id: 1, data: 'aGk=' });
      expect(interpretFrame(line)).toEqual({ type: 'egress', frame: { type, id: 1, data: 'aGk=' }, bytes: line.length });
    }
    expect(interpretFrame('{"type":"egress_other","id":1}').type).toBe('invalid');
  });
});

describe('one egress proxy per run', () => {
  it('none while egress.allow is empty', async () => {
    const runs = new EgressRuns({ home, env: {}, settings: () => settings({ egress: { allow: [], deny: ['*'] } }) });
    expect(runs.enabled).toBe(false);
    expect(await runs.forRun(() => {})).toBeNull();
  });

  it('gives the sandbox the CA certificate and placeholders; the CA key stays in the home, owner-only', async () => {
    const runs = new EgressRuns({ home, env: {}, settings: () => settings() });
    const egress = (await runs.forRun(() => {}))!;
    expect(egress.agent.placeholders).toEqual({ API_KEY: 'sandbar-secret-placeholder-API_KEY' });
    expect(egress.agent.caPem).toBe(readFileSync(path.join(home, 'egress-ca.pem'), 'utf8'));
    expect(JSON.stringify(egress.agent)).not.toContain('the-real-value');
    expect(statSync(path.join(home, 'egress-ca-key.pem')).mode & 0o777).toBe(0o600);
    expect(egress.records()).toEqual({ egress: [], egressDropped: 0 });
    expect(egress.limits.maxFrames).toBeGreaterThan(10);
    egress.gateway.close();
  });

  it('names each secret that cannot be used now (for Health), without any value', () => {
    const runs = new EgressRuns({
      home,
      env: { SET_TOKEN: 'from-the-environment' },
      settings: () =>
        settings({
          secrets: {
            API_KEY: { value: 'the-real-value', hosts: ['api.example.com'], header: 'Authorization: Bearer {secret}' },
            FROM_ENV: { env: 'SET_TOKEN', hosts: ['a.example.com'], header: 'Authorization: Bearer {secret}' },
            UNSET: { env: 'NOT_THERE', hosts: ['b.example.com'], header: 'Authorization: Bearer {secret}' },
            NO_FILE: { file: path.join(home, 'no-such-token'), hosts: ['c.example.com'], header: 'Authorization: Bearer {secret}' },
          },
        }),
    });
    const problems = runs.secretProblems();
    expect(problems).toEqual([
      "secret UNSET: the variable NOT_THERE is not set in Sandbar's environment",
      expect.stringMatching(/^secret NO_FILE: cannot read .*no-such-token \(ENOENT\)$/),
    ]);
    expect(JSON.stringify(problems)).not.toMatch(/the-real-value|from-the-environment/);
  });

  it('refuses in words when egressCaFile cannot be read', async () => {
    const runs = new EgressRuns({ home, env: {}, settings: () => settings({ egressCaFile: path.join(home, 'missing.pem') }) });
    await expect(runs.forRun(() => {})).rejects.toThrow(/egressCaFile .*missing\.pem cannot be read \(ENOENT\)/);
  });
});

describe('a run under egress on a backend', () => {
  const egress = { gateway: { accept: () => {}, close: () => (closed += 1) }, limits: { maxFrames: 1 }, agent: { caPem: '', placeholders: {} }, records: () => ({ egress: [], egressDropped: 0 }) };
  let closed = 0;

  it('goes ahead where the backend carries egress, and without it when egress is off', async () => {
    expect(await runEgressOf(async () => egress, { label: 'Podman', egress: true }, () => {})).toBe(egress);
    expect(await runEgressOf(async () => null, { label: 'Kubernetes', egress: false }, () => {})).toBeNull();
    expect(await runEgressOf(undefined, { label: 'Podman', egress: true }, () => {})).toBeNull();
  });

  it('is refused in words where the backend cannot carry it, or when its proxy cannot be made', async () => {
    const refused = await runEgressOf(async () => egress, { label: 'Kubernetes', egress: false }, () => {});
    expect(refused).toEqual({ refused: expect.stringMatching(/egress\.allow.*Kubernetes backend cannot carry it: the run was not started/) });
    expect(closed).toBe(1);
    const broken = await runEgressOf(async () => { throw new Error('egressCaFile /x cannot be read (EACCES)'); }, { label: 'Podman', egress: true }, () => {});
    expect(broken).toEqual({ refused: expect.stringContaining('could not be set up, so the run was not started: egressCaFile /x cannot be read (EACCES)') });
  });
});

describe('refused connections in the result text', () => {
  const finished = (extra: object) => ({ ...(runEvents({ stdout: 'hi\n' }).at(-1) as Extract<EngineEvent, { type: 'finished' }>).result, ...extra });

  it('one line per refusal after the output; the rest of the result as before', () => {
    const plain = runToolResult(finished({}), [], 'compact');
    const withEgress = runToolResult(finished({ egress: records, egressDropped: 0 }), [], 'compact');
    expect((plain.content[0] as { text: string }).text).toBe('hi');
    expect((withEgress.content[0] as { text: string }).text).toBe('hi\negress refused: evil.example:443 (not allowed)');
    expect(withEgress.structuredContent).toMatchObject({ egressRefused: ['egress refused: evil.example:443 (not allowed)'] });
    expect(plain.structuredContent).not.toHaveProperty('egressRefused');
    // Only allowed connections: nothing added.
    expect((runToolResult(finished({ egress: records.slice(0, 1) }), [], 'compact').content[0] as { text: string }).text).toBe('hi');
  });
});

describe('records in history', () => {
  it('schema v9 keeps a run\'s records and the count of those not kept; a run without egress reads as none', async () => {
    expect(SCHEMA_VERSION).toBe(9);
    const dir = tempDir();
    const store = await openStore(path.join(dir.dir, 'history.db'));
    try {
      const events = runEvents({ stdout: 'x\n' });
      const last = events.at(-1) as Extract<EngineEvent, { type: 'finished' }>;
      last.result = { ...last.result, egress: records, egressDropped: 3 };
      for (const e of events) store.record(e);
      expect(store.get(last.result.id)).toMatchObject({ egress: records, egressDropped: 3 });
      const other = runEvents({ stdout: 'y\n' });
      for (const e of other) store.record(e);
      const id = (other.at(-1) as Extract<EngineEvent, { type: 'finished' }>).result.id;
      expect(store.get(id)).toMatchObject({ egress: [], egressDropped: 0 });
    } finally {
      store.dispose();
      dir.cleanup();
    }
  });
});
