// How the Limits view's sliders map positions to values (linear, or stepped for sizes and counts).
/** How a slider maps its positions to the text of the box beside it (see SliderField). */
export interface SliderScale {
  min: number;
  max: number;
  step: number;
  /** The slider position for a text value, or null when the text is not a valid value. */
  toPosition: (value: string) => number | null;
  fromPosition: (position: number) => string;
  /** What a screen reader reads for a position ("512 MiB"). */
  describe?: (position: number) => string;
}
