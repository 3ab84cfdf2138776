// The egress decision per connection: allow and deny rules, names resolved once on the host (the answer
// says which address to connect to), private addresses refused unless named literally, refused names never
// resolved, and budgets that end a flood.
import { describe, expect, it, vi } from 'vitest';
import { EgressBudget } from '../../../electron/egress/egress-budget.js';
import { EgressPolicy, type Resolver } from '../../../electron/egress/egress-policy.js';
import { MAX_EGRESS_RECORDS, recordedPath, refusalBody, refusedLines, type EgressRecord } from '../../../shared/egress-audit.js';

const DNS: Record<string, string[]> = {
  'api.example.com': ['93.184.216.34'],
  'files.example.com': ['2606:2800:220:1:248:1893:25c8:1946'],
  'local.test': ['127.0.0.1'],
  'mixed.example.com': ['10.0.0.5', '93.184.216.35'],
  'rebind.example.com': ['169.254.169.254'],
  'intranet.corp.example': ['10.1.2.3'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
};
const resolver = (): Resolver & ReturnType<typeof vi.fn> =>
  vi.fn(async (host: string) => {
    const found = DNS[host];
    if (!found) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  });

const policy = (allow: string[], deny: string[] = []) => new EgressPolicy({ allow, deny });

describe('EgressPolicy', () => {
  it('is off with no allow rule', () => {
    expect(policy([]).enabled).toBe(false);
    expect(policy([], ['*.example.com']).enabled).toBe(false);
    expect(policy(['api.example.com']).enabled).toBe(true);
  });

  it('allows a named host at the address it resolved, once', async () => {
    const resolve = resolver();
    expect(await policy(['api.example.com']).decide('API.example.com.', 443, resolve)).toEqual({ decision: 'allowed', host: 'api.example.com', port: 443, address: '93.184.216.34' });
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  it('refuses a host no rule names without resolving it', async () => {
    const resolve = resolver();
    expect(await policy(['api.example.com']).decide('evil.example.net', 443, resolve)).toMatchObject({ decision: 'denied', reason: 'not allowed' });
    expect(resolve).not.toHaveBeenCalled();
  });

  it('lets deny win over allow, by name and by address', async () => {
    const resolve = resolver();
    expect(await policy(['*.example.com'], ['api.example.com']).decide('api.example.com', 443, resolve)).toMatchObject({ decision: 'denied', reason: 'denied by a rule (api.example.com)' });
    expect(await policy(['*.example.com'], ['93.184.216.0/24']).decide('api.example.com', 443, resolve)).toMatchObject({ decision: 'denied', reason: 'denied by a rule (93.184.216.0/24)' });
  });

  it('honours ports', async () => {
    const resolve = resolver();
    expect(await policy(['api.example.com:443']).decide('api.example.com', 443, resolve)).toMatchObject({ decision: 'allowed' });
    expect(await policy(['api.example.com:443']).decide('api.example.com', 22, resolve)).toMatchObject({ decision: 'denied', reason: 'not allowed' });
  });

  it('refuses a name resolving to loopback, link-local or private unless the literal is allowed', async () => {
    const resolve = resolver();
    expect(await policy(['local.test']).decide('local.test', 8080, resolve)).toMatchObject({ decision: 'denied', reason: expect.stringMatching(/^private address 127\.0\.0\.1/) });
    expect(await policy(['*.example.com']).decide('rebind.example.com', 80, resolve)).toMatchObject({ decision: 'denied', reason: expect.stringMatching(/^private address 169\.254\.169\.254/) });
    expect(await policy(['*.example.com']).decide('mapped.example.com', 80, resolve)).toMatchObject({ decision: 'denied', reason: expect.stringMatching(/^private address 127\.0\.0\.1/) });
    expect(await policy(['local.test', '127.0.0.1:8080']).decide('local.test', 8080, resolve)).toMatchObject({ decision: 'allowed', address: '127.0.0.1' });
    expect(await policy(['10.0.0.0/8']).decide('intranet.corp.example', 443, resolve)).toMatchObject({ decision: 'allowed', address: '10.1.2.3' });
  });

  it('picks the first address that passes, so a private answer beside a public one is skipped', async () => {
    expect(await policy(['mixed.example.com']).decide('mixed.example.com', 443, resolver())).toMatchObject({ decision: 'allowed', address: '93.184.216.35' });
  });

  it('takes IP literals as addresses: a literal rule opens one, a name rule never does', async () => {
    const resolve = resolver();
    expect(await policy(['127.0.0.1:8443']).decide('127.0.0.1', 8443, resolve)).toMatchObject({ decision: 'allowed', address: '127.0.0.1' });
    expect(await policy(['::1']).decide('[::1]', 80, resolve)).toMatchObject({ decision: 'allowed', address: '::1' });
    expect(await policy(['api.example.com']).decide('93.184.216.34', 443, resolve)).toMatchObject({ decision: 'denied', reason: 'not allowed' });
    expect(resolve).not.toHaveBeenCalled();
  });

  it('says when a name does not resolve, or is not a name at all', async () => {
    expect(await policy(['*.example.com']).decide('missing.example.com', 443, resolver())).toMatchObject({ decision: 'denied', reason: 'the name does not resolve' });
    expect(await policy(['*.example.com']).decide('bad host\r\n', 443, resolver())).toMatchObject({ decision: 'denied', reason: 'not a valid host name' });
    expect(await policy(['*.example.com']).decide('0x7f.1', 443, resolver())).toMatchObject({ decision: 'denied', reason: 'not a valid host name' });
    expect(await policy(['api.example.com']).decide('api.example.com', 0, resolver())).toMatchObject({ decision: 'denied', reason: 'not a valid port' });
    const long = await policy(['api.example.com']).decide('a'.repeat(10_000), 443, resolver());
    expect(long.host.length).toBeLessThanOrEqual(256);
  });
});

describe('EgressBudget', () => {
  it('ends a flood of connections: in all and at once', () => {
    const budget = new EgressBudget({ maxConnections: 3, maxBytes: 1_000_000, maxConcurrent: 2 });
    const a = budget.open();
    const b = budget.open();
    expect('refused' in a || 'refused' in b).toBe(false);
    expect(budget.open()).toEqual({ refused: 'the run has 2 connections open at once' });
    if (!('refused' in a)) {
      a.release();
      a.release(); // twice frees one slot only
    }
    expect('refused' in budget.open()).toBe(false);
    expect(budget.open()).toEqual({ refused: 'the run opened its 3 connections' });
    expect(budget.usage).toEqual({ connections: 3, open: 2, bytes: 0 });
  });

  it('counts bytes both ways per connection and for the run, and says when they are spent', () => {
    const budget = new EgressBudget({ maxConnections: 10, maxBytes: 100 });
    const lease = budget.open();
    if ('refused' in lease) throw new Error(lease.refused);
    expect(lease.add('out', 40)).toBe(true);
    expect(lease.add('in', 60)).toBe(true);
    expect(lease.add('in', 1)).toBe(false);
    expect([lease.bytesOut, lease.bytesIn]).toEqual([40, 61]);
    expect(budget.open()).toEqual({ refused: "the run's egress bytes are spent (100 bytes)" });
  });

  it('keeps at most MAX_EGRESS_RECORDS records and counts the rest', () => {
    const budget = new EgressBudget({ maxConnections: 10, maxBytes: 100 });
    const record: EgressRecord = { host: 'x.example', port: 443, decision: 'denied', reason: 'not allowed', bytesOut: 0, bytesIn: 0 };
    for (let i = 0; i < MAX_EGRESS_RECORDS + 7; i += 1) budget.record(record);
    expect(budget.records).toHaveLength(MAX_EGRESS_RECORDS);
    expect(budget.dropped).toBe(7);
    expect(refusedLines(budget.records.slice(0, 1), budget.dropped)).toEqual(['egress refused: x.example:443 (not allowed)', 'egress: 7 more connections not recorded (at most 500 per run)']);
  });
});

describe('audit text', () => {
  it('writes one refusal line per refused connection, IPv6 in brackets, nothing for allowed ones', () => {
    const records: EgressRecord[] = [
      { host: 'api.example.com', port: 443, decision: 'allowed', bytesOut: 10, bytesIn: 20 },
      { host: '::1', port: 80, decision: 'denied', reason: 'not allowed', bytesOut: 0, bytesIn: 0 },
    ];
    expect(refusedLines(records)).toEqual(['egress refused: [::1]:80 (not allowed)']);
  });

  it('begins the 403 body with the words clients and tests look for, invisible characters shown', () => {
    expect(refusalBody('evil.example.net', 443, 'not allowed')).toBe('sandbar: egress refused: evil.example.net:443: not allowed\n');
    expect(refusalBody('a\u202eb', 80, 'x')).not.toContain('\u202e');
  });

  it('records a path without its query, bounded', () => {
    expect(recordedPath('/v1/items?token=abc#frag')).toBe('/v1/items');
    expect(recordedPath(`/${'a'.repeat(500)}`)).toHaveLength(200);
  });
});
