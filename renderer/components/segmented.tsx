// A small radio group drawn as one segmented control (output mode, seccomp choice).
import { cx } from '../lib/cx.js';

export interface SegmentedProps<T extends string> {
  name: string;
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  disabled?: boolean;
}

/** A row of radio buttons styled as one control; arrow keys move between them natively. */
export function Segmented<T extends string>({ name, label, value, options, onChange, disabled }: SegmentedProps<T>) {
  return (
    <div className={cx('segmented', disabled && 'segmented-disabled')} role="radiogroup" aria-label={label}>
      {options.map((o) => (
        <label key={o.value} className={cx('segment', o.value === value && 'segment-on')}>
          <input type="radio" name={name} value={o.value} checked={o.value === value} disabled={disabled} onChange={() => onChange(o.value)} />
          {o.label}
        </label>
      ))}
    </div>
  );
}
