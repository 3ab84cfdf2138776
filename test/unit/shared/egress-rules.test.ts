// Egress rules (shared/egress.ts): what parses, what is refused with which reason, and what each form
// matches (names, wildcards, literals, CIDRs, ports), plus which addresses count as private.
import { describe, expect, it } from 'vitest';
import { describeEgressRule, isPublicAddress, parseEgressRule, ruleMatchesAddress, ruleMatchesName, type EgressRule } from '../../../shared/egress.js';
import { parseSettings } from '../../../shared/settings.js';

const rule = (text: string): EgressRule => {
  const parsed = parseEgressRule(text);
  if (typeof parsed === 'string') throw new Error(`${text}: ${parsed}`);
  return parsed;
};

describe('egress rules', () => {
  it.each([
    ['api.example.com', { kind: 'name', host: 'api.example.com' }],
    ['API.Example.COM.', { kind: 'name', host: 'api.example.com' }],
    ['api.example.com:8443', { kind: 'name', host: 'api.example.com', port: 8443 }],
    ['localhost', { kind: 'name', host: 'localhost' }],
    ['*.example.com', { kind: 'wildcard', suffix: 'example.com' }],
    ['*.example.com:443', { kind: 'wildcard', suffix: 'example.com', port: 443 }],
    ['127.0.0.1:8443', { kind: 'address', address: '127.0.0.1', bits: 32, port: 8443 }],
    ['10.0.0.0/8', { kind: 'address', address: '10.0.0.0', bits: 8 }],
    ['10.0.0.0/8:443', { kind: 'address', address: '10.0.0.0', bits: 8, port: 443 }],
    ['::1', { kind: 'address', address: '::1', bits: 128 }],
    ['[::1]:8080', { kind: 'address', address: '::1', bits: 128, port: 8080 }],
    ['fd00::/8', { kind: 'address', address: 'fd00::', bits: 8 }],
    ['[fd00::/8]:443', { kind: 'address', address: 'fd00::', bits: 8, port: 443 }],
    // A bare IPv6 literal has no port: its last group is part of the address.
    ['fe80::1:443', { kind: 'address', address: 'fe80::1:443', bits: 128 }],
    ['::ffff:127.0.0.1', { kind: 'address', address: '127.0.0.1', bits: 32 }],
  ])('parses %s', (text, expected) => {
    expect(parseEgressRule(text)).toMatchObject(expected);
  });

  it.each([
    ['', /empty/],
    ['*', /whole first label/],
    ['*.com', /whole top-level domain/],
    ['a.*.example.com', /whole first label/],
    ['foo*.example.com', /whole first label/],
    ['**.example.com', /whole first label/],
    ['https://api.example.com/', /not a URL/],
    ['api.example.com/path', /not a URL/],
    ['user@api.example.com', /not a URL/],
    ['api example.com', /not a URL/],
    ['api.example.com:0', /between 1 and 65535/],
    ['api.example.com:70000', /between 1 and 65535/],
    ['api.example.com:http', /not a number/],
    ['-bad.example.com', /not a valid host name/],
    ['bad_.example.com', /not a valid host name/],
    ['bücher.example', /xn--/],
    ['0x7f.0.0.1', /not a valid host name/],
    ['127.1', /not an IP address/],
    ['300.1.1.1', /not an IP address/],
    ['10.0.0.0/33', /prefix length/],
    ['0.0.0.0/0', /every address/],
    ['::/0', /every address/],
    ['printer.0x7f', /not a valid host name/],
    ['[::1', /not/],
  ])('refuses %j with a reason', (text, reason) => {
    const parsed = parseEgressRule(text);
    expect(typeof parsed).toBe('string');
    expect(parsed).toMatch(reason);
  });

  it('matches a name exactly, a wildcard only below its domain, and a port only when one is named', () => {
    expect(ruleMatchesName(rule('api.example.com'), 'api.example.com', 443)).toBe(true);
    expect(ruleMatchesName(rule('api.example.com'), 'x.api.example.com', 443)).toBe(false);
    expect(ruleMatchesName(rule('api.example.com:8443'), 'api.example.com', 443)).toBe(false);
    expect(ruleMatchesName(rule('*.example.com'), 'a.b.example.com', 80)).toBe(true);
    expect(ruleMatchesName(rule('*.example.com'), 'example.com', 80)).toBe(false);
    expect(ruleMatchesName(rule('*.example.com'), 'evilexample.com', 80)).toBe(false);
    expect(ruleMatchesName(rule('*.example.com:443'), 'a.example.com', 80)).toBe(false);
    // An address rule never matches a name, even one spelled like it.
    expect(ruleMatchesName(rule('127.0.0.1'), '127.0.0.1', 80)).toBe(false);
  });

  it('matches addresses by literal and CIDR, IPv4 never against IPv6', () => {
    expect(ruleMatchesAddress(rule('10.0.0.0/8'), '10.200.1.2', 80)).toBe(true);
    expect(ruleMatchesAddress(rule('10.0.0.0/8'), '11.0.0.1', 80)).toBe(false);
    expect(ruleMatchesAddress(rule('127.0.0.1:8443'), '127.0.0.1', 8443)).toBe(true);
    expect(ruleMatchesAddress(rule('127.0.0.1:8443'), '127.0.0.1', 8444)).toBe(false);
    expect(ruleMatchesAddress(rule('fd00::/8'), 'fd12::1', 443)).toBe(true);
    expect(ruleMatchesAddress(rule('10.0.0.0/8'), 'fd12::1', 443)).toBe(false);
    expect(ruleMatchesAddress(rule('api.example.com'), '10.0.0.1', 443)).toBe(false);
  });

  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['8.8.8.8', true],
    ['2001:4860:4860::8888', true],
  ])('counts %s as public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('describes what a rule matches, for the Limits view', () => {
    expect(describeEgressRule(rule('*.example.com:443'))).toBe('any name ending in .example.com (not example.com itself), port 443');
    expect(describeEgressRule(rule('10.0.0.0/8'))).toBe('addresses 10.0.0.0/8, any port, even when private');
    expect(describeEgressRule(rule('api.example.com'))).toBe('api.example.com only (not its subdomains), any port');
  });
});

describe('egress settings', () => {
  it('default to no way out', () => {
    const parsed = parseSettings({});
    expect(parsed.success && parsed.data.egress).toEqual({ allow: [], deny: [] });
    expect(parsed.success && parsed.data.secrets).toEqual({});
    expect(parsed.success && parsed.data.egressCaFile).toBe(null);
  });

  it('name the bad rule and its reason', () => {
    const parsed = parseSettings({ egress: { allow: ['api.example.com', '*.com'], deny: ['0.0.0.0/0'] } });
    expect(parsed.success).toBe(false);
    const issues = parsed.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues).toEqual([expect.stringMatching(/^egress\.allow\.1: .*top-level domain/), expect.stringMatching(/^egress\.deny\.0: .*every address/)]);
  });

  it('refuse unknown keys in egress', () => {
    expect(parseSettings({ egress: { allow: [], block: [] } }).success).toBe(false);
  });

  it('take a secret with exactly one source, hosts and a header holding {secret}', () => {
    const ok = parseSettings({ secrets: { API_KEY: { env: 'MY_API_KEY', hosts: ['api.example.com'] } } });
    expect(ok.success && ok.data.secrets.API_KEY).toEqual({ env: 'MY_API_KEY', hosts: ['api.example.com'], header: 'Authorization: Bearer {secret}' });
    const bad = (secrets: unknown) => {
      const parsed = parseSettings({ secrets });
      expect(parsed.success).toBe(false);
      return parsed.error!.issues.map((i) => i.message).join('; ');
    };
    expect(bad({ K: { value: 'a', env: 'B', hosts: ['x.example'] } })).toMatch(/exactly one of value, env or file/);
    expect(bad({ K: { hosts: ['x.example'] } })).toMatch(/exactly one of value, env or file/);
    expect(bad({ K: { value: 'a', hosts: [] } })).toMatch(/at least one host/);
    expect(bad({ K: { value: 'a', hosts: ['*.com'] } })).toMatch(/top-level domain/);
    expect(bad({ K: { value: 'a', hosts: ['x.example'], header: 'X-Key: fixed' } })).toMatch(/\{secret\}/);
    expect(bad({ K: { value: 'a', hosts: ['x.example'], header: 'X-Key: {secret}\r\nX-Other: 1' } })).toMatch(/one line/);
    expect(bad({ K: { value: 'a', hosts: ['x.example'], header: 'Host: {secret}' } })).toMatch(/proxy sets itself/);
    expect(bad({ K: { file: 'relative/key.txt', hosts: ['x.example'] } })).toMatch(/absolute path/);
    expect(bad({ HTTPS_PROXY: { value: 'a', hosts: ['x.example'] } })).toMatch(/variable the sandbox needs/);
    expect(bad({ LD_PRELOAD: { value: 'a', hosts: ['x.example'] } })).toMatch(/variable the sandbox needs/);
    expect(bad({ 'not-a-name': { value: 'a', hosts: ['x.example'] } })).toMatch(/environment variable names/);
    expect(bad({ K: { value: 'a', hosts: ['x.example'], extra: 1 } })).toBeTruthy();
  });

  it('want an absolute egressCaFile', () => {
    expect(parseSettings({ egressCaFile: '/etc/ssl/extra.pem' }).success).toBe(true);
    expect(parseSettings({ egressCaFile: 'extra.pem' }).success).toBe(false);
  });
});
