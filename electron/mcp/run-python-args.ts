// Validates `run_python` arguments with the reference's messages [compat]: schema errors read like
// Python's jsonschema ("'code' is a required property", "0 is less than the minimum of 1"), since
// agents and prompts have learnt to read them.
import { MAX_PACKAGES, parseRequirement } from '../../shared/packages.js';
import { parseSessionRequest } from '../../shared/sessions.js';
import type { RunRequest } from '../runs/ports.js';
import { codeSizeRefusal } from '../runs/run-refusal.js';

/** A usable call is a run request as it is: a new argument passes through to the run service untouched. */
export type ArgsCheck =
  | { ok: true; request: RunRequest }
  /** A schema violation: an error result with no structured content, as the SDK layer gave. */
  | { ok: false; kind: 'schema'; message: string }
  /** Passed the schema but unusable: a `validation_error` status result. */
  | { ok: false; kind: 'validation'; message: string };

/** Python's repr of a JSON value, for messages that match the reference's. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(value);
  if (typeof value === 'string') return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  }
  return String(value);
}

export const CHECKPOINT_FORM =
  'session: a step back is written "<id>@<n>": the 32-character id a session call returned, @, and the number of the call whose checkpoint to continue from (1 for the opening call), e.g. "<id>@2".';

const schemaError = (message: string): ArgsCheck => ({ ok: false, kind: 'schema', message: `Input validation error: ${message}` });

export function checkRunPythonArgs(args: Record<string, unknown> | undefined, limits: { maxTimeoutSec: number; maxCodeBytes: number }): ArgsCheck {
  const a = args ?? {};
  if (!('code' in a)) return schemaError("'code' is a required property");
  if (typeof a.code !== 'string') return schemaError(`${pyRepr(a.code)} is not of type 'string'`);
  if ('servers' in a) {
    if (!Array.isArray(a.servers)) return schemaError(`${pyRepr(a.servers)} is not of type 'array'`);
    const bad = a.servers.find((s) => typeof s !== 'string');
    if (bad !== undefined) return schemaError(`${pyRepr(bad)} is not of type 'string'`);
  }
  if ('packages' in a) {
    if (!Array.isArray(a.packages)) return schemaError(`${pyRepr(a.packages)} is not of type 'array'`);
    const bad = a.packages.find((s) => typeof s !== 'string');
    if (bad !== undefined) return schemaError(`${pyRepr(bad)} is not of type 'string'`);
    if (a.packages.length > MAX_PACKAGES) return { ok: false, kind: 'validation', message: `At most ${MAX_PACKAGES} packages per run.` };
    for (const text of a.packages as string[]) {
      const parsed = parseRequirement(text);
      if ('error' in parsed) return { ok: false, kind: 'validation', message: `packages: ${parsed.error}` };
    }
  }
  // "new" or an id; anything else is for the session registry to call unknown (it never reaches a command line).
  if ('session' in a && typeof a.session !== 'string') return schemaError(`${pyRepr(a.session)} is not of type 'string'`);
  // A step back (`<id>@<n>`) written wrong is told how it is written; a plain malformed id stays `unknown`.
  if (typeof a.session === 'string') {
    const parsed = parseSessionRequest(a.session);
    if (parsed.kind === 'malformed' && parsed.checkpoint) return { ok: false, kind: 'validation', message: CHECKPOINT_FORM };
  }
  let timeout: number | undefined;
  if ('timeout' in a) {
    const t = a.timeout;
    if (typeof t !== 'number' || !Number.isInteger(t)) return schemaError(`${pyRepr(t)} is not of type 'integer'`);
    if (t < 1) return schemaError(`${t} is less than the minimum of 1`);
    if (t > limits.maxTimeoutSec) return schemaError(`${t} is greater than the maximum of ${limits.maxTimeoutSec}`);
    timeout = t;
  }
  if (a.code.trim() === '') return { ok: false, kind: 'validation', message: "Missing 'code' argument" };
  const tooLarge = codeSizeRefusal(a.code, limits.maxCodeBytes);
  if (tooLarge) return { ok: false, kind: 'validation', message: tooLarge };
  const request: RunRequest = {
    code: a.code,
    servers: (a.servers as string[] | undefined) ?? [],
    packages: (a.packages as string[] | undefined) ?? [],
    ...(timeout !== undefined ? { timeoutSec: timeout } : {}),
    ...(a.session !== undefined ? { session: a.session as string } : {}),
  };
  return { ok: true, request };
}
