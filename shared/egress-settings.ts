// The settings of egress through the host (issue 26): `egress` (allow/deny rules), `secrets` (credentials
// the host adds to requests for their hosts; the sandbox sees a placeholder), `egressCaFile` (more CAs for
// upstreams) and the per-run bounds. `secrets` and `egressCaFile` are host-affecting (settings/host-exec-fields.ts).
import { z } from 'zod';
import { parseEgressRule } from './egress.js';

const ruleList = (what: string) =>
  z
    .array(
      z.string({ error: 'must be a rule: host, host:port, *.domain[:port], an IP address or a CIDR' }).superRefine((value, ctx) => {
        const rule = parseEgressRule(value);
        if (typeof rule === 'string') ctx.addIssue({ code: 'custom', message: rule });
      }),
      { error: `must be a list of rules ${what}` },
    )
    .max(256, 'must list at most 256 rules');

export const EgressSchema = z
  .object(
    {
      /** Hosts sandboxed code may reach through the host's proxy; empty: no proxy, no way out (the default). */
      allow: ruleList('the sandbox may reach').default([]),
      /** Wins over allow. */
      deny: ruleList('the sandbox may never reach').default([]),
    },
    { error: 'must be an object with allow and deny lists' },
  )
  .strict();

export type EgressSettings = z.infer<typeof EgressSchema>;

/** Variables the sandbox needs for itself (proxy, CA bundle, Python, the loader): a secret may not take their names. */
const RESERVED_NAME = /^(PATH|HOME|USER|SHELL|TERM|LANG|LC_.*|LD_.*|PYTHON.*|SANDBAR_.*|HTTPS?_PROXY|NO_PROXY|ALL_PROXY|SSL_CERT_(FILE|DIR)|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|MPLBACKEND|TMPDIR)$/i;
/** Headers the proxy itself decides (framing, routing, the proxy hop). */
const RESERVED_HEADER = /^(host|content-length|transfer-encoding|connection|upgrade|te|trailer|keep-alive|proxy-.*)$/i;
export const DEFAULT_SECRET_HEADER = 'Authorization: Bearer {secret}';

const SecretSchema = z
  .object(
    {
      value: z.string({ error: 'must be the secret itself' }).min(1, 'must not be empty').optional(),
      env: z.string({ error: 'must be the name of a variable of Sandbar\'s own environment' }).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name').optional(),
      file: z.string({ error: 'must be an absolute path to a file holding the secret' }).refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'must be an absolute path').optional(),
      hosts: z
        .array(
          z.string({ error: 'must be a host rule' }).superRefine((value, ctx) => {
            const rule = parseEgressRule(value);
            if (typeof rule === 'string') ctx.addIssue({ code: 'custom', message: rule });
          }),
          { error: 'must be a list of the hosts this secret is sent to' },
        )
        .min(1, 'must name at least one host: a secret is only ever sent to its own hosts')
        .max(64, 'must list at most 64 hosts'),
      header: z
        .string({ error: 'must be a header line such as "Authorization: Bearer {secret}"' })
        .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+: [^\r\n\0]*\{secret\}[^\r\n\0]*$/, 'must be "Name: value" on one line with {secret} in the value, as in "Authorization: Bearer {secret}"')
        .refine((h) => !RESERVED_HEADER.test(h.slice(0, h.indexOf(':'))), 'must not be a header the proxy sets itself (Host, Content-Length, Connection, Proxy-...)')
        .default(DEFAULT_SECRET_HEADER),
    },
    { error: 'must be an object: { value | env | file, hosts, header? }' },
  )
  .strict()
  .refine((s) => [s.value, s.env, s.file].filter((v) => v !== undefined).length === 1, 'must have exactly one of value, env or file');

// Names are checked after the record (a key schema's own message is replaced by the record's).
export const SecretsSchema = z
  .record(z.string(), SecretSchema, { error: 'must be an object of secret names to { value | env | file, hosts, header? }' })
  .superRefine((secrets, ctx) => {
    for (const name of Object.keys(secrets)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'secret names must be environment variable names (letters, digits and _, at most 64)' });
      else if (RESERVED_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'secret names may not be a variable the sandbox needs itself (PATH, HTTP_PROXY, SSL_CERT_FILE, PYTHON..., ...)' });
    }
  });

export type SecretSettings = z.infer<typeof SecretsSchema>;
export type SecretEntry = SecretSettings[string];

/** How a secret is named where a person reads settings (the panel, a confirmation): its value never appears. */
export function maskSecrets(secrets: SecretSettings): SecretSettings {
  return Object.fromEntries(Object.entries(secrets).map(([name, s]) => [name, s.value === undefined ? s : { ...s, value: SECRET_MASK }]));
}

/** Stands for a typed-in value wherever settings are shown; sending it back leaves the stored value as it is. */
export const SECRET_MASK = '(hidden)';
