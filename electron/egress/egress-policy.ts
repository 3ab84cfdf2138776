// The egress proxy's decision for one connection: may the sandbox reach HOST:PORT, and at which address.
// Names are resolved here, on the host, once per connection; the caller connects to the address returned
// (never resolves again), so a name cannot pass the check and then point somewhere else (DNS rebinding).
// `deny` wins over `allow`; an address that is not public unicast is refused unless a rule names it as an
// IP or CIDR. A name nothing could allow is refused before any lookup, so a refused name is never resolved.
import { canonicalAddress, isPublicAddress, normalizeHostName, parseEgressRules, ruleMatchesAddress, ruleMatchesName, type EgressRule } from '../../shared/egress.js';
import type { EgressSettings } from '../../shared/egress-settings.js';

/** All addresses of a name (dns.promises.lookup with `all: true`, in tests a table). */
export type Resolver = (host: string) => Promise<readonly string[]>;

export type ConnectionDecision =
  | { decision: 'allowed'; host: string; port: number; address: string }
  | { decision: 'denied'; host: string; port: number; reason: string };

const MAX_HOST_CHARS = 255;

export class EgressPolicy {
  readonly #allow: EgressRule[];
  readonly #deny: EgressRule[];

  constructor(settings: EgressSettings) {
    this.#allow = parseEgressRules(settings.allow);
    this.#deny = parseEgressRules(settings.deny);
  }

  /** With no allow rule there is no proxy at all (the sandbox has no proxy variables). */
  get enabled(): boolean {
    return this.#allow.length > 0;
  }

  async decide(rawHost: string, port: number, resolve: Resolver): Promise<ConnectionDecision> {
    const host = rawHost.length > MAX_HOST_CHARS ? `${rawHost.slice(0, MAX_HOST_CHARS)}…` : rawHost;
    const denied = (reason: string): ConnectionDecision => ({ decision: 'denied', host, port, reason });
    if (!Number.isInteger(port) || port < 1 || port > 65_535) return denied('not a valid port');

    const literal = canonicalAddress(host);
    const name = literal === undefined ? normalizeHostName(host) : undefined;
    if (literal === undefined && name === undefined) return denied('not a valid host name');
    const shown = literal ?? name!;
    const deniedRule = name === undefined ? undefined : this.#deny.find((r) => ruleMatchesName(r, name, port));
    if (deniedRule) return { ...denied(`denied by a rule (${deniedRule.text})`), host: shown };
    const nameAllowed = name !== undefined && this.#allow.some((r) => ruleMatchesName(r, name, port));
    const anyAddressRule = this.#allow.some((r) => r.kind === 'address' && (r.port === undefined || r.port === port));
    if (!nameAllowed && !anyAddressRule) return { ...denied('not allowed'), host: shown };

    let addresses: readonly string[];
    if (literal !== undefined) addresses = [literal];
    else {
      try {
        addresses = (await resolve(name!)).map((a) => canonicalAddress(a)).filter((a): a is string => a !== undefined);
      } catch {
        return { ...denied('the name does not resolve'), host: shown };
      }
      if (addresses.length === 0) return { ...denied('the name does not resolve'), host: shown };
    }

    // The first address that passes is the one to connect to; otherwise the strongest reason is given.
    const reasons: string[] = [];
    for (const address of addresses) {
      const deny = this.#deny.find((r) => ruleMatchesAddress(r, address, port));
      if (deny) {
        reasons.push(`denied by a rule (${deny.text})`);
        continue;
      }
      if (this.#allow.some((r) => ruleMatchesAddress(r, address, port))) return { decision: 'allowed', host: shown, port, address };
      if (!nameAllowed) {
        reasons.push('not allowed');
        continue;
      }
      if (!isPublicAddress(address)) {
        reasons.push(`private address ${address} (allow it by its IP or CIDR to reach it)`);
        continue;
      }
      return { decision: 'allowed', host: shown, port, address };
    }
    const strongest = reasons.find((r) => r.startsWith('denied')) ?? reasons.find((r) => r.startsWith('private')) ?? reasons[0] ?? 'not allowed';
    return { ...denied(strongest), host: shown };
  }
}
