// A determinate or indeterminate bar (elapsed vs timeout, image pull) in a tone.
import { cx } from '../lib/cx.js';
import type { Tone } from './tone.js';

export interface ProgressBarProps {
  /** 0..1, or null for "working, amount unknown". */
  value: number | null;
  label: string;
  /** What a screen reader reads ("12 s of 30 s"). */
  valueText?: string;
  tone?: Tone;
}

/** Drawn with a transform, so updating it never moves anything else on the page. */
export function ProgressBar({ value, label, valueText, tone = 'accent' }: ProgressBarProps) {
  const clamped = value === null ? null : Math.min(1, Math.max(0, value));
  return (
    <div
      className={cx('progress', clamped === null && 'progress-indeterminate')}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped === null ? undefined : Math.round(clamped * 100)}
      aria-valuetext={valueText}
    >
      <div className={cx('progress-fill', `progress-${tone}`)} style={clamped === null ? undefined : { transform: `scaleX(${clamped})` }} />
    </div>
  );
}

/** Green, then amber past 75 %, red past 90 %: how close a run is to a limit. */
export function usageTone(fraction: number): Tone {
  if (fraction >= 0.9) return 'fail';
  if (fraction >= 0.75) return 'warn';
  return 'accent';
}
