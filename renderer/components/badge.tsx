// Small state labels and dots in the colours of state (tone.ts).
import type { ReactNode } from 'react';
import { cx } from '../lib/cx.js';
import type { Tone } from './tone.js';

export type { Tone };

export function Badge({ tone = 'muted', children, title }: { tone?: Tone; children: ReactNode; title?: string }) {
  return (
    <span className={cx('badge', `badge-${tone}`)} title={title}>
      {children}
    </span>
  );
}

/** A coloured dot; `label` is what a screen reader says instead of the colour. */
export function StatusDot({ tone, label, pulse = false }: { tone: Tone; label: string; pulse?: boolean }) {
  return <span className={cx('dot', `dot-${tone}`, pulse && 'dot-pulse')} role="img" aria-label={label} title={label} />;
}
