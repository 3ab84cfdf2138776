// The one sanitiser for text a person reads that came from a sandbox or an agent (tool arguments, code
// lines, output, file names, client names): every surface (CLI, tray, notifications, panel, elicitation,
// history, result lines) shows it through here, so what one shows, all show. Removed: ECMA-48 escape and
// control sequences whole (CSI, OSC, DCS, SOS, PM, APC, and two-byte escapes; ansi-regex only knows the
// colour subset), C0 and C1 controls (a multi-line surface keeps \n and \t; \r would let a line overwrite
// itself, so it becomes \n), bidi controls (Trojan Source) and invisible characters (zero-width, word
// joiners, BOM, soft hyphen, Unicode tags); lone surrogates become U+FFFD. Lengths are bounded per surface
// without splitting a surrogate pair.

/** ESC + one of [ ] P X ^ _ opens a sequence; C1 forms (U+009B CSI, U+009D OSC, ...) are the same without ESC. */
// eslint-disable-next-line no-control-regex
const CSI = /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]/g;
/** Strings (OSC, DCS, SOS, PM, APC) up to BEL or ST; unterminated ones lose only their opener (below). */
// eslint-disable-next-line no-control-regex
const STRING_SEQ = /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)/g;
/** Any other escape: ESC, intermediates (0x20-0x2F), one final byte (ESC 7, ESC c, ESC ( B, ...). */
// eslint-disable-next-line no-control-regex
const OTHER_ESC = /\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;
/** C0 but \t and \n, DEL, C1. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/**
 * Bidi controls (ALM U+061C, LRM/RLM U+200E-200F, embeddings and overrides U+202A-202E, isolates
 * U+2066-2069), zero-width and invisible characters (U+200B-200D, U+2060-2064, U+FEFF, U+180E, U+00AD,
 * U+FFF9-FFFB interlinear annotations, U+E0000-E007F tags), and lone surrogates.
 */
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Line and paragraph separators break lines in some renderers. */
const SEPARATORS = /[\u2028\u2029]/g;

/** Per-surface bounds, in UTF-16 code units unless named bytes. */
export const DISPLAY_LIMITS = {
  /** A server or tool name, a client name. */
  name: 128,
  /** A code line with its question. */
  codeLine: 240,
  /** A tray menu label. */
  menuLabel: 80,
  /** One line of a notification. */
  notificationLine: 120,
  /** Arguments in the CLI listing. */
  cliArgs: 300,
  /** Arguments in the panel (pretty-printed). */
  panelArgs: 4000,
  /** A tool call's error as history keeps it. */
  storedError: 1000,
  /** The whole elicitation message, in UTF-8 bytes. */
  elicitationBytes: 4096,
} as const;

export interface DisplayOptions {
  /** Keep \n and \t (a block of text); otherwise every run of blanks becomes one space and ends are trimmed. */
  multiline?: boolean;
  /** At most this many UTF-16 code units, the ellipsis included. */
  maxChars?: number;
}

/** Input longer than this many times the bound is cut before the work (what is stripped can only shrink it). */
const PRE_CUT_FACTOR = 8;

/** The text as a person may see it (see the file's opening comment for what goes). */
export function displayText(text: string, options: DisplayOptions = {}): string {
  const max = options.maxChars ?? Infinity;
  let s = typeof text === 'string' ? text : String(text);
  if (Number.isFinite(max) && s.length > max * PRE_CUT_FACTOR + 1024) s = cutAt(s, max * PRE_CUT_FACTOR + 1024);
  s = s
    .replace(STRING_SEQ, '')
    .replace(CSI, '')
    .replace(OTHER_ESC, '')
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(INVISIBLE, '')
    .replace(SEPARATORS, '\n')
    .replace(/\r\n?/g, '\n')
    .replace(CONTROLS, '');
  s = options.multiline ? s : s.replace(/\s+/g, ' ').trim();
  return bound(s, max);
}

/** One line of plain text of at most `maxChars`. */
export function displayLine(text: string, maxChars: number): string {
  return displayText(text, { maxChars });
}

/** Invisible and control characters that JSON.stringify leaves raw, as JSON escapes: the value reads the same, and shows. */
const JSON_UNSAFE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;
const escapeUnit = (c: string) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/** JSON text with what JSON.stringify leaves raw (DEL, C1, bidi, invisible) written as escapes: still the same document. */
export function escapeInvisible(json: string): string {
  return json.replace(JSON_UNSAFE, escapeUnit);
}

/**
 * A JSON value (tool arguments) as text a person reads: still JSON and still the same value, with every
 * control and invisible character written as an escape (JSON.stringify already escapes C0 and lone
 * surrogates), so an argument cannot hide or reorder what is shown. Bounded like displayText.
 */
export function displayJson(value: unknown, maxChars: number, indent?: number): string {
  let json: string;
  try {
    json = JSON.stringify(value, null, indent) ?? String(value);
  } catch {
    json = '(not JSON)';
  }
  return bound(escapeInvisible(json), maxChars);
}

/** The text cut to `max` code units with an ellipsis, never between the halves of a surrogate pair. */
export function bound(text: string, max: number): string {
  if (!(text.length > max)) return text;
  if (max < 1) return '';
  return `${cutAt(text, max - 1)}…`;
}

/** At most `max` UTF-8 bytes (the ellipsis included), never splitting a character. */
export function boundBytes(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  let bytes = 3; // the ellipsis
  let end = 0;
  for (const ch of text) {
    const size = utf8Length(ch);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return `${text.slice(0, end)}…`;
}

/** UTF-8 length without Buffer (the panel runs this too); a lone surrogate counts as the 3 bytes of U+FFFD. */
export function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

function cutAt(text: string, units: number): string {
  const code = text.charCodeAt(units - 1);
  // A high surrogate at the cut would be half a character: leave it out.
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? units - 1 : units);
}
