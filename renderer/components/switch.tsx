// An accessible on/off switch for boolean settings.
import { cx } from '../lib/cx.js';

/** An on/off switch (role=switch), labelled by its visible text. */
export function Switch({ checked, onChange, label, disabled }: { checked: boolean; onChange: (next: boolean) => void; label: string; disabled?: boolean }) {
  return (
    <button type="button" role="switch" aria-checked={checked} className={cx('switch', checked && 'switch-on')} disabled={disabled} onClick={() => onChange(!checked)}>
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      <span>{label}</span>
    </button>
  );
}
