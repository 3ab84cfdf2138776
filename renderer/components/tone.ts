// The colours of state every component shares.
/** The colours of state: green, amber, red, grey, and the accent for "in progress". */
export type Tone = 'ok' | 'warn' | 'fail' | 'muted' | 'accent';
