// A slider and a text box that edit one value together: the slider for quick moves over a useful range,
// the box for any exact value the schema accepts (even outside the slider's range).
import { useRef, type ReactNode } from 'react';
import { Field } from './field.js';
import type { SliderScale } from './slider-scale.js';

export type { SliderScale };

export interface SliderFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  scale: SliderScale;
  unit?: string;
  hint?: ReactNode;
  error?: string | null;
  locked?: string | null;
  placeholder?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
}

export function SliderField({ id, label, value, onChange, scale, unit, hint, error, locked, placeholder, inputMode = 'numeric' }: SliderFieldProps) {
  // While the text is invalid the slider stays where the last valid value put it.
  const lastPosition = useRef(scale.min);
  const position = scale.toPosition(value);
  if (position !== null) lastPosition.current = Math.min(scale.max, Math.max(scale.min, position));
  const shown = lastPosition.current;
  return (
    <Field id={id} label={label} hint={hint} error={error} locked={locked}>
      {(control) => (
        <div className="slider-row">
          <input
            type="range"
            className="slider"
            min={scale.min}
            max={scale.max}
            step={scale.step}
            value={shown}
            disabled={control.readOnly}
            aria-label={`${label} slider`}
            aria-valuetext={scale.describe?.(shown)}
            onChange={(e) => onChange(scale.fromPosition(Number(e.currentTarget.value)))}
          />
          <span className="slider-input">
            <input
              {...control}
              type="text"
              className="input input-num"
              inputMode={inputMode}
              spellCheck={false}
              autoComplete="off"
              value={value}
              placeholder={placeholder}
              onChange={(e) => onChange(e.currentTarget.value)}
            />
            {/* Always there, so every box lines up whether or not it has a unit. */}
            <span className="unit">{unit ?? ''}</span>
          </span>
        </div>
      )}
    </Field>
  );
}
