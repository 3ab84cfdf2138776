// Egress rules (setting `egress`): which hosts sandboxed code may reach through the host's proxy. One parser
// for the settings schema, the Limits view's preview and the proxy's decision, so all three agree on what a
// rule matches. Addresses are parsed by ipaddr.js (it runs in the panel too), never by hand.
import ipaddr from 'ipaddr.js';

/** `host`, `*.domain` (name rules), an IP literal or a CIDR (address rules); each with an optional port. */
export type EgressRule =
  | { kind: 'name'; text: string; host: string; port?: number }
  | { kind: 'wildcard'; text: string; suffix: string; port?: number }
  | { kind: 'address'; text: string; address: string; bits: number; port?: number };

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A host name as the proxy compares it: lower case, one trailing dot dropped; undefined when not a valid name. */
export function normalizeHostName(host: string): string | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name.length === 0 || name.length > 253) return undefined;
  const labels = name.split('.');
  // A numeric or hex last label makes resolvers read the whole name as an IPv4 address (0x7f.1 is 127.0.0.1).
  if (/^([0-9]+|0x[0-9a-f]*)$/.test(labels.at(-1)!)) return undefined;
  return labels.every((label) => LABEL.test(label)) ? name : undefined;
}

/** An IP literal (IPv4 in four decimal parts, IPv6 with or without brackets) in its canonical form; IPv4-mapped IPv6 becomes IPv4. */
export function canonicalAddress(text: string): string | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare).toString();
  if (!bare.includes(':') || !ipaddr.IPv6.isValid(bare)) return undefined;
  return ipaddr.process(bare).toString();
}

function parsePort(text: string): number | string {
  if (!/^[0-9]{1,5}$/.test(text)) return `the port "${text}" is not a number`;
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? port : `the port ${port} is not between 1 and 65535`;
}

/** Splits `rest:port` (IPv6 only in brackets: `[::1]:443`, `[fd00::/8]:443`); a bare IPv6 literal or CIDR has no port. */
function splitPort(text: string): { base: string; port?: string } {
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close === -1) return { base: text };
    const after = text.slice(close + 1);
    return after.startsWith(':') ? { base: text.slice(1, close), port: after.slice(1) } : { base: after === '' ? text.slice(1, close) : text };
  }
  const colons = text.split(':').length - 1;
  if (colons !== 1) return { base: text };
  const at = text.lastIndexOf(':');
  return { base: text.slice(0, at), port: text.slice(at + 1) };
}

function parseAddressRule(text: string, base: string, port: number | undefined): EgressRule | string | undefined {
  if (base.includes('/')) {
    const [addr, bitsText] = base.split('/', 2) as [string, string];
    const address = canonicalAddress(addr);
    if (address === undefined) return /^[0-9.]+$/.test(addr) || addr.includes(':') ? `"${addr}" is not an IP address` : undefined;
    const max = address.includes(':') ? 128 : 32;
    if (!/^[0-9]{1,3}$/.test(bitsText) || Number(bitsText) > max) return `the prefix length "/${bitsText}" must be a number from 0 to ${max}`;
    const bits = Number(bitsText);
    if (bits === 0) return 'a /0 range matches every address; name the hosts or ranges instead';
    return { kind: 'address', text, address, bits, ...(port === undefined ? {} : { port }) };
  }
  const address = canonicalAddress(base);
  if (address !== undefined) return { kind: 'address', text, address, bits: address.includes(':') ? 128 : 32, ...(port === undefined ? {} : { port }) };
  if (/^[0-9.]+$/.test(base) || base.includes(':')) return `"${base}" is not an IP address (IPv4 in four decimal parts, IPv6 in brackets when a port follows)`;
  return undefined;
}

/** One rule, or the reason it is not one (a sentence a person can act on). */
export function parseEgressRule(input: string): EgressRule | string {
  const text = input.trim();
  if (text === '') return 'a rule cannot be empty';
  if (text.length > 300) return 'a rule must be at most 300 characters';
  if (/[\s/\\@?#]/.test(text.replace(/\/[0-9]+(\]?)(:[0-9]+)?$/, '$1$2'))) return `"${text}" must be a host, host:port, *.domain[:port], an IP address or a CIDR, not a URL`;
  const { base, port: portText } = splitPort(text);
  let port: number | undefined;
  if (portText !== undefined) {
    const parsed = parsePort(portText);
    if (typeof parsed === 'string') return parsed;
    port = parsed;
  }
  const address = parseAddressRule(text, base, port);
  if (address !== undefined) return address;
  const withPort = port === undefined ? {} : { port };
  if (base.includes('*')) {
    if (!base.startsWith('*.') || base.slice(2).includes('*')) return `"${text}": a wildcard may only be a whole first label, as in *.example.com`;
    const suffix = normalizeHostName(base.slice(2));
    if (suffix === undefined) return `"${text}": "${base.slice(2)}" is not a valid host name`;
    if (!suffix.includes('.')) return `"${text}" matches a whole top-level domain; name a domain under it, as in *.example.${suffix}`;
    return { kind: 'wildcard', text, suffix, ...withPort };
  }
  const host = normalizeHostName(base);
  if (host === undefined) return `"${base}" is not a valid host name (letters, digits and -, labels separated by dots; write other scripts in their xn-- form)`;
  return { kind: 'name', text, host, ...withPort };
}

/** Parses a whole list; throws nothing (the settings schema reports the reasons). */
export function parseEgressRules(rules: readonly string[]): EgressRule[] {
  return rules.map(parseEgressRule).filter((r): r is EgressRule => typeof r !== 'string');
}

const portMatches = (rule: EgressRule, port: number) => rule.port === undefined || rule.port === port;

/** Does a name rule (host or wildcard) match this host name? Address rules never match names. */
export function ruleMatchesName(rule: EgressRule, host: string, port: number): boolean {
  if (!portMatches(rule, port)) return false;
  if (rule.kind === 'name') return rule.host === host;
  if (rule.kind === 'wildcard') return host.endsWith(`.${rule.suffix}`);
  return false;
}

/** Does an address rule (literal or CIDR) match this address (canonical form)? Name rules never match addresses. */
export function ruleMatchesAddress(rule: EgressRule, address: string, port: number): boolean {
  if (rule.kind !== 'address' || !portMatches(rule, port)) return false;
  const a = ipaddr.parse(address);
  const r = ipaddr.parse(rule.address);
  return a.kind() === r.kind() && a.match(r, rule.bits);
}

/** Public unicast only: loopback, private, link-local, unique-local, CGNAT, multicast, reserved and the IPv6 transition ranges are not. */
export function isPublicAddress(address: string): boolean {
  return ipaddr.process(address).range() === 'unicast';
}

/** What a rule matches, in words (the Limits view's preview). */
export function describeEgressRule(rule: EgressRule): string {
  const port = rule.port === undefined ? 'any port' : `port ${rule.port}`;
  if (rule.kind === 'name') return `${rule.host} only (not its subdomains), ${port}`;
  if (rule.kind === 'wildcard') return `any name ending in .${rule.suffix} (not ${rule.suffix} itself), ${port}`;
  const single = rule.bits === (rule.address.includes(':') ? 128 : 32);
  return `${single ? `the address ${rule.address}` : `addresses ${rule.address}/${rule.bits}`}, ${port}, even when private`;
}
