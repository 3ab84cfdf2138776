// The settings the whole app runs with: defaults < settings file < environment < command-line flags.
// The panel edits the file layer only; values set by a variable or a flag are shown as locked. Only get()
// carries secrets' typed-in values: every view and change that leaves here has them masked (SECRET_MASK),
// and a patch that sends the mask back keeps the stored value.
import { isDeepStrictEqual } from 'node:util';
import type { SettingsChange, SettingsView } from '../../shared/contract.js';
import { maskSecrets, SECRET_MASK } from '../../shared/egress-settings.js';
import { AppError, errorMessage } from '../../shared/errors.js';
import { describeFieldErrors, settingsFieldErrors } from '../../shared/settings-errors.js';
import { DEFAULT_SETTINGS, parseSettings, SettingsSchema, type Settings } from '../../shared/settings.js';
import { SETTINGS_FILE } from './paths.js';
import { folderJudgeFor } from './folder-context.js';
import { hostExecChanges, type HostExecChange, type ServersPreview } from './host-exec-fields.js';
import { patchBoundsProblem } from './patch-limits.js';
import { applyPatch, changedPaths, isPlainObject, prunePatch, valueAt } from './settings-patch.js';
import { envLayer, fileLayer, mergeLayers, resolveSettings, type SettingsLayer } from './settings-layers.js';
import type { SettingsStore } from './settings-store.js';

export interface SettingsServiceOptions {
  store: SettingsStore;
  env: NodeJS.ProcessEnv;
  flags?: SettingsLayer;
  /** Found while opening the store (a corrupt file moved aside); kept for health. */
  warnings?: string[];
  /** The servers discovery would load under some settings, so a confirmation of importClients/allowSelfServer can list them. */
  serversPreview?: ServersPreview;
}

interface Loaded {
  settings: Settings;
  /** env and flags, the layers above the file; labels name the variable or flag. */
  above: SettingsLayer[];
}

/** Dotted path → the variable or flag that sets it (a flag wins over a variable for the same path). */
function lockedPaths(above: SettingsLayer[]): Map<string, string> {
  const locked = new Map<string, string>();
  for (const layer of above) for (const [dotted, label] of layer.labels) locked.set(dotted, label);
  return locked;
}

/** Folders and egress's secrets and CA file run nothing: each says what it decides instead. */
function hostEffect(field: string): string {
  if (field === 'folders') return "decides which of this computer's files every sandbox sees";
  if (field.startsWith('secrets.')) return 'decides which credential leaves this computer, and for which hosts';
  if (field === 'egressCaFile') return "decides which servers sandboxes' requests trust";
  return 'decides what runs on this computer';
}

const isEgressTrust = (field: string) => field.startsWith('secrets.') || field === 'egressCaFile';

function hostExecRefusal(changes: HostExecChange[], file: string): AppError {
  const fields = Object.fromEntries(
    changes.map((c) => [c.field, `${hostEffect(c.field)}, so it cannot be changed here; edit ${file}, or change it in the Sandbar desktop app`]),
  );
  const names = changes.map((c) => c.field).join(', ');
  if (changes.every((c) => c.field === 'folders')) {
    return new AppError('forbidden', `folders ${hostEffect('folders')} and cannot be changed from here. Edit ${file}, or use the Sandbar desktop app (Limits › Folders; it asks you to confirm).`, { fields });
  }
  if (changes.every((c) => isEgressTrust(c.field))) {
    return new AppError('forbidden', `${names}: secrets and the egress CA file decide which credential leaves this computer and which servers are trusted, so they cannot be changed from here. Edit ${file}, or use the Sandbar desktop app (it asks you to confirm).`, { fields });
  }
  return new AppError('forbidden', `${names} decide${changes.length === 1 ? 's' : ''} what runs on this computer and cannot be changed from here. Edit ${file}, or use the Sandbar desktop app (it asks you to confirm the exact command).`, { fields });
}

/** Settings as a person or the panel may see them: secrets' typed-in values masked. */
function shown(settings: Settings): Settings {
  return { ...structuredClone(settings), secrets: maskSecrets(settings.secrets) };
}

/** A secret sent back with the mask (a whole form saved) keeps the file's value; the mask alone is never stored. */
function keepMaskedSecrets(patch: Record<string, unknown>, file: Record<string, unknown>): Record<string, unknown> {
  if (!isPlainObject(patch) || !isPlainObject(patch.secrets)) return patch;
  const stored = isPlainObject(file.secrets) ? file.secrets : {};
  const secrets: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(patch.secrets)) {
    if (!isPlainObject(entry) || entry.value !== SECRET_MASK) {
      secrets[name] = entry;
      continue;
    }
    const before = stored[name];
    if (!isPlainObject(before) || typeof before.value !== 'string') {
      throw new AppError('invalid_config', `Some settings are not valid: secrets.${name}.value: type the secret itself (${SECRET_MASK} stands for a value already saved)`, {
        fields: { [`secrets.${name}.value`]: `type the secret itself (${SECRET_MASK} stands for a value already saved)` },
      });
    }
    secrets[name] = { ...entry, value: before.value };
  }
  return { ...patch, secrets };
}

export class SettingsService {
  readonly warnings: string[];
  readonly #store: SettingsStore;
  readonly #env: NodeJS.ProcessEnv;
  readonly #flags: SettingsLayer | undefined;
  readonly #serversPreview: ServersPreview | undefined;
  readonly #listeners = new Set<(change: SettingsChange) => void>();
  // Read on first use (constructors do no I/O), then kept: get() is called on every run.
  #loaded: Loaded | undefined;

  constructor(options: SettingsServiceOptions) {
    this.#store = options.store;
    this.#env = options.env;
    this.#flags = options.flags;
    this.#serversPreview = options.serversPreview;
    this.warnings = [...(options.warnings ?? [])];
  }

  /** The effective settings. Throws invalid_config naming the file, variable or flag of an invalid value. */
  get(): Settings {
    return structuredClone(this.#load().settings);
  }

  view(): SettingsView {
    const loaded = this.#load();
    const locked = lockedPaths(loaded.above);
    return {
      settings: shown(loaded.settings),
      defaults: structuredClone(DEFAULT_SETTINGS),
      locked: [...locked].sort(([a], [b]) => a.localeCompare(b)).map(([dotted, source]) => ({ path: dotted, source })),
      file: this.#store.path,
    };
  }

  /**
   * Applies a partial settings object to the file (merge rules in settings-patch.ts), validates the result
   * as a whole and writes it, or throws invalid_config with `fields` and writes nothing. A locked field may
   * be sent unchanged (a whole form, say) and is then left out of the file; changing it is refused.
   * Host-executing changes (see host-exec-fields.ts) are refused with `forbidden` unless the caller passes
   * exactly those changes as `confirmed` (the person saw and accepted them).
   */
  update(patch: Record<string, unknown>, options: { confirmed?: HostExecChange[] } = {}): SettingsChange {
    const plan = this.#plan(patch);
    const unconfirmed = plan.hostExec.filter((c) => !options.confirmed?.some((ok) => isDeepStrictEqual(ok, c)));
    if (unconfirmed.length > 0) throw hostExecRefusal(unconfirmed, this.#store.path);

    if (!isDeepStrictEqual(plan.nextFile, plan.file)) this.#store.store = plan.nextFile;
    const settings = plan.settings;
    const before = this.#load();
    this.#loaded = { settings, above: before.above };
    const change: SettingsChange = { settings: shown(settings), changed: changedPaths(before.settings, settings, SettingsSchema) };
    if (change.changed.length > 0) this.#emit(change);
    return change;
  }

  /** Validates `patch` like update() and says which of its changes run something on the host; writes nothing. */
  hostExecChanges(patch: Record<string, unknown>): HostExecChange[] {
    return this.#plan(patch).hostExec;
  }

  #plan(patch: Record<string, unknown>): { file: Record<string, unknown>; nextFile: Record<string, unknown>; settings: Settings; hostExec: HostExecChange[] } {
    if (!isPlainObject(patch)) throw new AppError('invalid_request', 'A settings update must be an object of settings.');
    patch = keepMaskedSecrets(patch, this.#readFile());
    const bounds = patchBoundsProblem(patch);
    if (bounds) throw new AppError('invalid_config', `The settings update was refused: ${bounds}.`, { fields: { '(update)': bounds } });
    const before = this.#load();
    const above = before.above;
    const locked = lockedPaths(above);
    // No prototype: a field named `constructor` or `__proto__` must be recorded, not found already "set".
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    const keep = (dotted: string, value: unknown): boolean => {
      const label = locked.get(dotted);
      if (label !== undefined) {
        if (!isDeepStrictEqual(value, valueAt(before.settings, dotted))) fields[dotted] ??= `is set by ${label}; change or remove ${label} to edit it here`;
        return false;
      }
      const inside = [...locked].find(([path]) => path.startsWith(`${dotted}.`));
      if (inside) {
        fields[dotted] ??= `cannot be replaced: ${inside[0]} is set by ${inside[1]}`;
        return false;
      }
      return true;
    };
    const applied = prunePatch(patch, SettingsSchema, keep, fields);

    // Merged into what is on disk now, so an edit made by hand since the last read is kept.
    const file = this.#readFile();
    const nextFile = applyPatch(file, applied, SettingsSchema) as Record<string, unknown>;
    // Validated without resolveSettings' timeout clamp (kept for the environment's sake): from the panel,
    // a default timeout above the maximum is an error on limits.timeoutSec.
    const parsed = parseSettings(mergeLayers([fileLayer(nextFile, SETTINGS_FILE), ...above]));
    if (!parsed.success) for (const [dotted, message] of Object.entries(settingsFieldErrors(parsed.error))) fields[dotted] ??= message;
    // A folder the person adds or changes here is judged now: refused with its rule, nothing written.
    if (parsed.success && !isDeepStrictEqual(parsed.data.folders, before.settings.folders)) {
      const { refused } = folderJudgeFor(this.#env).judgeAll(parsed.data.folders);
      const isNew = (name: string) => {
        const f = parsed.data.folders.find((x) => x.name === name);
        return !before.settings.folders.some((old) => isDeepStrictEqual(old, f));
      };
      // One already in the file and refused there stays as it was (health names it); it does not block others.
      for (const r of refused.filter((x) => isNew(x.name))) fields[`folders.${parsed.data.folders.findIndex((f) => f.name === r.name)}.path`] ??= `${r.path} cannot be a folder in the sandbox: it ${r.reason}`;
    }
    if (Object.keys(fields).length > 0 || !parsed.success) {
      throw new AppError('invalid_config', `Some settings are not valid: ${describeFieldErrors(fields)}`, { fields });
    }
    const preview = this.#serversPreview ? { next: parsed.data, servers: this.#serversPreview } : undefined;
    return { file, nextFile, settings: parsed.data, hostExec: hostExecChanges({ ...before.settings }, applied, preview) };
  }

  /** Called after each update that changed an effective value; returns the unsubscribe function. */
  subscribe(listener: (change: SettingsChange) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #emit(change: SettingsChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(structuredClone(change));
      } catch {
        // The change is already saved: a broken subscriber must not fail it or starve the others.
      }
    }
  }

  #load(): Loaded {
    if (this.#loaded) return this.#loaded;
    const above = [envLayer(this.#env), ...(this.#flags ? [this.#flags] : [])];
    const settings = resolveSettings([fileLayer(this.#readFile(), SETTINGS_FILE), ...above]);
    this.#loaded = { settings, above };
    return this.#loaded;
  }

  #readFile(): Record<string, unknown> {
    let values: unknown;
    try {
      values = this.#store.store;
    } catch (err) {
      throw new AppError('invalid_config', `Cannot read the settings file ${this.#store.path}: ${errorMessage(err)}`, { cause: err });
    }
    // A copy: the layers and the patch must never alter what the store handed out.
    return isPlainObject(values) ? structuredClone({ ...values }) : {};
  }
}
