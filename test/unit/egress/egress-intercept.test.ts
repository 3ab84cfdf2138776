// HTTPS through the egress proxy, with real TLS on 127.0.0.1: for a host with a secret the proxy presents a
// leaf from the instance's CA (key file 0600) and adds the secret upstream, verifying the upstream against
// the CAs it is given (egressCaFile); a host without a secret is tunnelled untouched; an upstream whose CA
// is not trusted gets a 502, never the secret.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressBudget } from '../../../electron/egress/egress-budget.js';
import { EgressCa } from '../../../electron/egress/egress-ca.js';
import { EgressPolicy } from '../../../electron/egress/egress-policy.js';
import { EgressProxy } from '../../../electron/egress/egress-proxy.js';
import { placeholderOf, resolveSecrets } from '../../../electron/egress/egress-secrets.js';
import { SecretsSchema } from '../../../shared/egress-settings.js';

const SECRET = 'sk-intercepted-value';
let instanceDir: string;
let upstreamDir: string;
let instanceCa: EgressCa;
let upstreamCa: EgressCa;
let upstream: https.Server;
let upstreamPort = 0;
const seen: (string | undefined)[] = [];
const servers: net.Server[] = [];

beforeAll(async () => {
  instanceDir = mkdtempSync(path.join(tmpdir(), 'sandbar-egress-ca-'));
  instanceCa = await EgressCa.loadOrCreate(instanceDir);
  // The upstream's own CA, as a company or test CA would be (given to the proxy as egressCaFile).
  upstreamDir = mkdtempSync(path.join(tmpdir(), 'sandbar-upstream-ca-'));
  upstreamCa = await EgressCa.loadOrCreate(upstreamDir);
  upstream = https.createServer({ SNICallback: (name, cb) => void upstreamCa.contextFor(name).then((c) => cb(null, c), (e: Error) => cb(e)) }, (req, res) => {
    seen.push(req.headers.authorization);
    res.end(`secure hello ${req.url} host=${req.headers.host}`);
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamPort = (upstream.address() as AddressInfo).port;
});
afterAll(() => {
  upstream.close();
  for (const s of servers) s.close();
  for (const dir of [instanceDir, upstreamDir]) rmSync(dir, { recursive: true, force: true });
});

async function proxyWith(trusted: string[]) {
  const names: Record<string, string[]> = { 'secret.test': ['127.0.0.1'], 'plain.test': ['127.0.0.1'] };
  const { secrets } = resolveSecrets(SecretsSchema.parse({ API_KEY: { value: SECRET, hosts: ['secret.test'] } }), { env: {}, readFile: () => '' });
  const budget = new EgressBudget({ maxConnections: 10, maxBytes: 1_000_000 });
  const proxy = new EgressProxy({ policy: new EgressPolicy({ allow: ['secret.test', 'plain.test', '127.0.0.1'], deny: [] }), budget, secrets, resolve: async (h) => names[h] ?? [], ca: instanceCa, upstreamCa: trusted });
  const front = net.createServer((s) => proxy.accept(s));
  servers.push(front);
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  return { budget, port: (front.address() as AddressInfo).port };
}

/** CONNECT through the proxy, TLS trusting only `ca` for `name`, one GET; the raw HTTP answer. */
function get(proxyPort: number, name: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const raw = net.connect(proxyPort, '127.0.0.1', () => raw.write(`CONNECT ${name}:${upstreamPort} HTTP/1.1\r\nHost: ${name}\r\n\r\n`));
    raw.once('data', (reply: Buffer) => {
      if (!reply.toString().startsWith('HTTP/1.1 200')) return reject(new Error(reply.toString()));
      const secure = tls.connect({ socket: raw, servername: name, ca }, () => {
        secure.write(`GET /data HTTP/1.1\r\nHost: ${name}\r\nAuthorization: Bearer ${placeholderOf('API_KEY')}\r\nConnection: close\r\n\r\n`);
      });
      let text = '';
      secure.on('data', (c: Buffer) => (text += c.toString()));
      secure.on('end', () => resolve(text));
      secure.on('error', reject);
    });
    raw.on('error', reject);
  });
}

describe('egress HTTPS interception', () => {
  it('keeps the CA key owner-only and the same CA across restarts', async () => {
    expect(statSync(path.join(instanceDir, 'egress-ca-key.pem')).mode & 0o777).toBe(0o600);
    const again = await EgressCa.loadOrCreate(instanceDir);
    expect(again.certPem).toBe(instanceCa.certPem);
    expect(instanceCa.certPem).not.toContain('PRIVATE KEY');
  });

  it('adds the secret over HTTPS for its host, the upstream verified against egressCaFile', async () => {
    const { budget, port } = await proxyWith([...tls.rootCertificates, upstreamCa.certPem]);
    seen.length = 0;
    const answer = await get(port, 'secret.test', instanceCa.certPem);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toContain(`secure hello /data host=secret.test:${upstreamPort}`);
    expect(seen).toEqual([`Bearer ${SECRET}`]);
    expect(budget.records).toEqual([expect.objectContaining({ host: 'secret.test', method: 'GET', path: '/data', status: 200, secret: 'API_KEY', decision: 'allowed' })]);
    expect(JSON.stringify(budget.records)).not.toContain(SECRET);
  });

  it('tunnels a host without a secret untouched: the client sees the upstream\'s own certificate', async () => {
    const { port } = await proxyWith([...tls.rootCertificates]);
    seen.length = 0;
    const answer = await get(port, 'plain.test', upstreamCa.certPem);
    expect(answer).toContain('secure hello /data host=plain.test');
    expect(seen).toEqual([`Bearer ${placeholderOf('API_KEY')}`]);
    // Trusting only the instance CA fails: nothing was intercepted.
    await expect(get(port, 'plain.test', instanceCa.certPem)).rejects.toThrow();
  });

  it('answers 502 and sends nothing when the upstream\'s CA is not trusted', async () => {
    const { budget, port } = await proxyWith([...tls.rootCertificates]);
    seen.length = 0;
    const answer = await get(port, 'secret.test', instanceCa.certPem);
    expect(answer).toMatch(/^HTTP\/1\.1 502 /);
    expect(answer).toContain('its certificate was not trusted');
    expect(seen).toEqual([]);
    expect(budget.records[0]).toMatchObject({ status: 502, secret: 'API_KEY' });
  });
});
