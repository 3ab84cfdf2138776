// A labelled control with its hint, its error and (when env or a flag sets it) where its value comes from.
import type { ReactNode } from 'react';
import { cx } from '../lib/cx.js';

export interface ControlProps {
  id: string;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
  readOnly: boolean;
}

export interface FieldProps {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** Where a locked value comes from (`MCP_BRIDGE_MEMORY`, `--memory`): shown, not editable. */
  locked?: string | null;
  /** Shown after the label (a unit, the current value). */
  aside?: ReactNode;
  children: (control: ControlProps) => ReactNode;
}

export function Field({ id, label, hint, error, locked, aside, children }: FieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = error ? errorId : hint || locked ? hintId : undefined;
  return (
    <div className={cx('field', error && 'field-invalid', locked && 'field-locked')}>
      <div className="field-head">
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
        {aside && <span className="field-aside">{aside}</span>}
      </div>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described, readOnly: !!locked })}
      {/* One line under the control: the error while there is one, else the hint. Its height is reserved,
          so an error appearing while typing never moves the fields below. */}
      <p className={cx('field-note', error && 'field-error')} id={error ? errorId : hintId} role={error ? 'alert' : undefined}>
        {error ?? (
          <>
            {locked ? (
              <>
                Locked: set by <code>{locked}</code>.{' '}
              </>
            ) : null}
            {hint}
          </>
        )}
      </p>
    </div>
  );
}
