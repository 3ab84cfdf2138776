// The Limits form's state: the draft, live validation, server field errors, apply and the two resets.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SettingsView } from '../../../shared/contract.js';
import { ApiCallError, api, describeError } from '../../api/index.js';
import { useSettingsStore } from '../../stores/settings-store.js';
import { toast } from '../../stores/ui-store.js';
import {
  buildPatch,
  changedPaths,
  defaultsDraft,
  draftFromSettings,
  errorsForFields,
  FIELD_KEYS,
  FIELD_PATHS,
  lockedSources,
  validateDraft,
  type FieldErrors,
  type FieldKey,
  type LimitsDraft,
} from './limits-form.js';

export interface LimitsForm {
  draft: LimitsDraft;
  errors: FieldErrors;
  /** Server-side problems not tied to a field of this form. */
  formError: string | null;
  locked: Map<string, string>;
  /** Fields whose text differs from the settings in force. */
  dirty: FieldKey[];
  valid: boolean;
  applying: boolean;
  validLimits: Record<string, unknown> | null;
  set(key: FieldKey, value: string): void;
  apply(): Promise<void>;
  discard(): void;
  resetToDefaults(): void;
}

export function useLimitsForm(view: SettingsView): LimitsForm {
  const [draft, setDraft] = useState(() => draftFromSettings(view.settings));
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [applying, setApplying] = useState(false);
  const base = useRef(draftFromSettings(view.settings));

  // Settings changed elsewhere (another panel, the tray, the file): take the new values into fields the
  // user has not edited, keep the edits.
  useEffect(() => {
    const next = draftFromSettings(view.settings);
    const before = base.current;
    base.current = next;
    setDraft((d) => {
      const merged = { ...d };
      for (const key of FIELD_KEYS) if (d[key] === before[key]) merged[key] = next[key];
      return merged;
    });
  }, [view.settings]);

  const locked = useMemo(() => lockedSources(view), [view]);
  const validation = useMemo(() => validateDraft(draft, view.settings), [draft, view.settings]);
  const current = draftFromSettings(view.settings);
  const dirty = FIELD_KEYS.filter((k) => draft[k] !== current[k] && !locked.has(FIELD_PATHS[k]));

  const set = useCallback((key: FieldKey, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setServerErrors((e) => {
      if (!(key in e)) return e;
      const rest = { ...e };
      delete rest[key];
      return rest;
    });
    setFormError(null);
  }, []);

  const apply = async () => {
    if (!validation.settings) return;
    const lockedPaths = new Set(locked.keys());
    const patch = buildPatch(view.settings, validation.settings, lockedPaths);
    const paths = changedPaths(view.settings, validation.settings, lockedPaths);
    if (paths.length === 0) return;
    setApplying(true);
    try {
      const change = await api.call('settings.update', { patch });
      useSettingsStore.getState().settingsChanged(change);
      toast('ok', paths.length === 1 ? 'Applied 1 change.' : `Applied ${paths.length} changes.`);
    } catch (err) {
      if (err instanceof ApiCallError && err.fields) {
        const { byField, other } = errorsForFields(err.fields);
        setServerErrors(byField);
        setFormError(other.length > 0 ? other.join('; ') : null);
      } else {
        setFormError(describeError(err));
      }
      toast('fail', `Not applied: ${describeError(err)}`);
    } finally {
      setApplying(false);
    }
  };

  return {
    draft,
    errors: { ...validation.errors, ...serverErrors },
    formError: formError ?? (validation.other.length > 0 ? validation.other.join('; ') : null),
    locked,
    dirty,
    valid: validation.settings !== null,
    applying,
    validLimits: validation.settings ? (validation.settings.limits as unknown as Record<string, unknown>) : null,
    set,
    apply,
    discard: () => {
      setDraft(draftFromSettings(view.settings));
      setServerErrors({});
      setFormError(null);
    },
    resetToDefaults: () => {
      setDraft(defaultsDraft(view));
      setServerErrors({});
      setFormError(null);
    },
  };
}
