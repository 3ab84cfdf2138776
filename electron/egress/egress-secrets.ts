// Credentials the code uses but never reads. The sandbox's variable NAME holds a placeholder; the host's
// proxy puts the value (read here from the settings, Sandbar's own environment or a file) into the secret's
// header on requests to the secret's hosts only, replacing whatever header the code sent. A placeholder the
// code sends anywhere else stays a placeholder. Values live in this process's memory only.
import { canonicalAddress, normalizeHostName, parseEgressRules, ruleMatchesAddress, ruleMatchesName, type EgressRule } from '../../shared/egress.js';
import type { SecretSettings } from '../../shared/egress-settings.js';

/** A value larger than this is refused (a header this big is a mistake, and it bounds memory). */
export const MAX_SECRET_BYTES = 8 * 1024;

export interface ResolvedSecret {
  name: string;
  hosts: EgressRule[];
  headerName: string;
  /** The header's value with the secret in it; never logged, recorded or sent to the sandbox. */
  headerValue: string;
}

export interface SecretSources {
  env: NodeJS.ProcessEnv;
  readFile: (path: string) => string;
}

/** What the sandbox sees in place of the value: recognisable, and useless anywhere but through the proxy. */
export const placeholderOf = (name: string) => `sandbar-secret-placeholder-${name}`;

/** The sandbox's environment for the secrets: each name to its placeholder. */
export function placeholderEnv(secrets: SecretSettings): Record<string, string> {
  return Object.fromEntries(Object.keys(secrets).map((name) => [name, placeholderOf(name)]));
}

function valueOf(name: string, entry: SecretSettings[string], sources: SecretSources): string | { problem: string } {
  let value: string;
  if (entry.value !== undefined) value = entry.value;
  else if (entry.env !== undefined) {
    const found = sources.env[entry.env];
    if (found === undefined || found === '') return { problem: `secret ${name}: the variable ${entry.env} is not set in Sandbar's environment` };
    value = found;
  } else {
    try {
      value = sources.readFile(entry.file!).replace(/\r?\n$/, '');
    } catch (err) {
      return { problem: `secret ${name}: cannot read ${entry.file} (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
    }
  }
  if (value === '') return { problem: `secret ${name}: the value is empty` };
  if (/[\r\n\0]/.test(value)) return { problem: `secret ${name}: the value has a line break or NUL, which cannot go in a header` };
  if (Buffer.byteLength(value) > MAX_SECRET_BYTES) return { problem: `secret ${name}: the value is larger than ${MAX_SECRET_BYTES} bytes` };
  return value;
}

/** The usable secrets, and a sentence for each that is not (for Health; never containing a value). */
export function resolveSecrets(secrets: SecretSettings, sources: SecretSources): { secrets: ResolvedSecret[]; problems: string[] } {
  const resolved: ResolvedSecret[] = [];
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(secrets)) {
    const value = valueOf(name, entry, sources);
    if (typeof value !== 'string') {
      problems.push(value.problem);
      continue;
    }
    const colon = entry.header.indexOf(':');
    const template = entry.header.slice(colon + 1).trim();
    resolved.push({ name, hosts: parseEgressRules(entry.hosts), headerName: entry.header.slice(0, colon), headerValue: template.split('{secret}').join(value) });
  }
  return { secrets: resolved, problems };
}

/** The secret for requests to HOST:PORT (the first whose hosts match), if any. */
export function secretFor(secrets: readonly ResolvedSecret[], host: string, port: number): ResolvedSecret | undefined {
  const address = canonicalAddress(host);
  const name = address === undefined ? normalizeHostName(host) : undefined;
  return secrets.find((s) =>
    s.hosts.some((rule) => (address !== undefined ? ruleMatchesAddress(rule, address, port) : name !== undefined && ruleMatchesName(rule, name, port))),
  );
}

/**
 * Over plain HTTP a credential would cross the network readable by anyone on the path, so it is added only
 * when the checked address is this computer's loopback (a local service); over HTTPS it is always added.
 */
export function mayInjectOverPlainHttp(address: string): boolean {
  const canonical = canonicalAddress(address);
  return canonical === '::1' || (canonical !== undefined && /^127\./.test(canonical));
}

/** The request's headers with the secret's header set (any the code sent under that name, in any case, replaced). */
export function withSecretHeader(headers: Record<string, string | string[] | undefined>, secret: ResolvedSecret): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const wanted = secret.headerName.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (value !== undefined && key.toLowerCase() !== wanted) out[key] = value;
  out[secret.headerName] = secret.headerValue;
  return out;
}
