// The Limits form without React: text drafts ↔ settings, client-side validation with the shared schema
// (same messages as the server), server field errors mapped back, and a patch of only what changed.
import type { SettingsView } from '../../../shared/contract.js';
import { formatBytes } from '../../../shared/limits.js';
import { parseSettings, type Settings } from '../../../shared/settings.js';
import { settingsFieldErrors } from '../../../shared/settings-errors.js';

/** What the form edits: every field as the text in its box. */
export interface LimitsDraft {
  memory: string;
  pids: string;
  /** Empty = all host CPUs (null). */
  cpus: string;
  timeoutSec: string;
  maxTimeoutSec: string;
  /** KiB per stream. */
  outputCapKiB: string;
  concurrency: string;
  queueLimit: string;
  poolSize: string;
  /** Empty = grow to the default (null). */
  poolMax: string;
  image: string;
  outputMode: string;
  /** MB of installed package layers and wheels kept. */
  packageCacheMB: string;
  /** Connections one run may open through the egress proxy. */
  egressMaxConnections: string;
  /** MiB one run may send and receive through the egress proxy (the setting counts bytes). */
  egressMaxMiB: string;
}

export type FieldKey = keyof LimitsDraft;

const MIB = 1024 * 1024;

/** Each form field's dotted settings path (as in `SettingsView.locked` and error `fields`). */
export const FIELD_PATHS: Record<FieldKey, string> = {
  memory: 'limits.memory',
  pids: 'limits.pids',
  cpus: 'limits.cpus',
  timeoutSec: 'limits.timeoutSec',
  maxTimeoutSec: 'limits.maxTimeoutSec',
  outputCapKiB: 'limits.outputCapBytes',
  concurrency: 'concurrency',
  queueLimit: 'queueLimit',
  poolSize: 'poolSize',
  poolMax: 'poolMax',
  image: 'image',
  outputMode: 'outputMode',
  packageCacheMB: 'packageCacheMB',
  egressMaxConnections: 'egressMaxConnections',
  egressMaxMiB: 'egressMaxBytes',
};

export const FIELD_KEYS = Object.keys(FIELD_PATHS) as FieldKey[];
const KEY_BY_PATH = new Map(FIELD_KEYS.map((k) => [FIELD_PATHS[k], k]));

export type FieldErrors = Partial<Record<FieldKey, string>>;

export function draftFromSettings(s: Settings): LimitsDraft {
  return {
    memory: s.limits.memory,
    pids: String(s.limits.pids),
    cpus: s.limits.cpus === null ? '' : String(s.limits.cpus),
    timeoutSec: String(s.limits.timeoutSec),
    maxTimeoutSec: String(s.limits.maxTimeoutSec),
    outputCapKiB: String(+(s.limits.outputCapBytes / 1024).toFixed(3)),
    concurrency: String(s.concurrency),
    queueLimit: String(s.queueLimit),
    poolSize: String(s.poolSize),
    poolMax: s.poolMax === null ? '' : String(s.poolMax),
    image: s.image,
    outputMode: s.outputMode,
    packageCacheMB: String(s.packageCacheMB),
    egressMaxConnections: String(s.egressMaxConnections),
    egressMaxMiB: String(+(s.egressMaxBytes / MIB).toFixed(3)),
  };
}

/** A number typed as text; anything else becomes NaN so the schema reports "must be a number". */
export function parseNumberText(text: string): number {
  const t = text.trim();
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t) ? Number(t) : Number.NaN;
}

/** The settings object a draft stands for (not yet validated). */
export function settingsFromDraft(draft: LimitsDraft, base: Settings): unknown {
  const kib = parseNumberText(draft.outputCapKiB);
  const mib = parseNumberText(draft.egressMaxMiB);
  return {
    ...base,
    limits: {
      ...base.limits,
      memory: draft.memory,
      pids: parseNumberText(draft.pids),
      cpus: draft.cpus.trim() === '' ? null : parseNumberText(draft.cpus),
      timeoutSec: parseNumberText(draft.timeoutSec),
      maxTimeoutSec: parseNumberText(draft.maxTimeoutSec),
      outputCapBytes: Number.isNaN(kib) ? kib : Math.round(kib * 1024),
    },
    concurrency: parseNumberText(draft.concurrency),
    queueLimit: parseNumberText(draft.queueLimit),
    poolSize: parseNumberText(draft.poolSize),
    poolMax: draft.poolMax.trim() === '' ? null : parseNumberText(draft.poolMax),
    image: draft.image,
    outputMode: draft.outputMode,
    packageCacheMB: parseNumberText(draft.packageCacheMB),
    egressMaxConnections: parseNumberText(draft.egressMaxConnections),
    egressMaxBytes: Number.isNaN(mib) ? mib : Math.round(mib * MIB),
  };
}

/** The output cap is edited in KiB while the schema counts bytes: say its bounds in the unit shown. */
function inFieldUnits(key: FieldKey, message: string): string {
  if (key !== 'outputCapKiB') return message;
  return message.replace(/at (least|most) (\d+)$/, (_, which: string, n: string) => `at ${which} ${formatBytes(Number(n))}`);
}

/** Dotted-path messages (client parse or the server's `fields`) → messages per form field. */
export function errorsForFields(fields: Record<string, string>): { byField: FieldErrors; other: string[] } {
  const byField: FieldErrors = {};
  const other: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    const key = KEY_BY_PATH.get(path);
    if (key) byField[key] ??= inFieldUnits(key, message);
    else other.push(path ? `${path}: ${message}` : message);
  }
  return { byField, other };
}

export interface Validation {
  /** The parsed settings when the draft is valid, else null. */
  settings: Settings | null;
  errors: FieldErrors;
  /** Problems not tied to a field of this form. */
  other: string[];
}

export function validateDraft(draft: LimitsDraft, base: Settings): Validation {
  const result = parseSettings(settingsFromDraft(draft, base));
  if (result.success) return { settings: result.data, errors: {}, other: [] };
  const { byField, other } = errorsForFields(settingsFieldErrors(result.error));
  return { settings: null, errors: byField, other };
}

function valueAt(s: Settings, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), s);
}

/** Dotted paths of the form's fields that differ between two settings (locked ones excluded). */
export function changedPaths(current: Settings, next: Settings, locked: ReadonlySet<string> = new Set()): string[] {
  return FIELD_KEYS.map((k) => FIELD_PATHS[k]).filter((p) => !locked.has(p) && !Object.is(valueAt(current, p), valueAt(next, p)));
}

/** A nested partial with only the changed fields: what `settings.update` takes. */
export function buildPatch(current: Settings, next: Settings, locked: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const path of changedPaths(current, next, locked)) {
    const keys = path.split('.');
    let target = patch;
    for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
    target[keys.at(-1)!] = valueAt(next, path);
  }
  return patch;
}

/** dotted path → source, for the fields env or flags set. */
export function lockedSources(view: Pick<SettingsView, 'locked'>): Map<string, string> {
  return new Map(view.locked.map((l) => [l.path, l.source]));
}

/** The defaults, except for locked fields, which keep the value in force. */
export function defaultsDraft(view: SettingsView): LimitsDraft {
  const current = draftFromSettings(view.settings);
  const defaults = draftFromSettings(view.defaults);
  const locked = lockedSources(view);
  const out = { ...defaults };
  for (const key of FIELD_KEYS) if (locked.has(FIELD_PATHS[key])) out[key] = current[key];
  return out;
}

/** `--memory 512m` per line: a flag and the values that follow it. */
export function groupArgv(argv: readonly string[]): string[] {
  const lines: string[] = [];
  for (const arg of argv) {
    if (lines.length === 0 || arg.startsWith('-')) lines.push(arg);
    else lines[lines.length - 1] += ` ${arg}`;
  }
  return lines;
}
