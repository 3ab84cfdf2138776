// The sanitiser every surface shows sandbox and agent text through: each class of character it removes,
// what it keeps, the bounds, and that a surrogate pair is never split.
import { describe, expect, it } from 'vitest';
import { bound, boundBytes, displayJson, displayLine, displayText, utf8Length } from '../../../shared/display-text.js';

const block = (s: string) => displayText(s, { multiline: true });
const codePoints = (s: string) => [...s].map((c) => c.codePointAt(0)!);
/** Nothing a terminal obeys or a renderer hides is left. */
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\udb40[\udc00-\udc7f]/;

describe('displayText: what goes', () => {
  it('removes CSI sequences whole (7-bit and C1 forms, with parameters and intermediates)', () => {
    expect(block('a\u001b[31mred\u001b[0m b')).toBe('ared b');
    expect(block('x\u001b[2J\u001b[1;1Hy')).toBe('xy');
    expect(block('p\u001b[?25lq')).toBe('pq');
    expect(block('m\u001b[1 qn')).toBe('mn');
    expect(block('c1\u009b31mc')).toBe('c1c');
  });

  it('removes OSC, DCS, SOS, PM and APC strings whole, ended by BEL or ST', () => {
    expect(block('t\u001b]0;fake title\u0007u')).toBe('tu');
    expect(block('link \u001b]8;;http://127.0.0.1/x\u001b\\text\u001b]8;;\u001b\\ end')).toBe('link text end');
    expect(block('d\u001bPq#0;2;0;0;0\u001b\\e')).toBe('de');
    expect(block('s\u001bXsos\u001b\\t')).toBe('st');
    expect(block('p\u001b^pm\u009cq')).toBe('pq');
    expect(block('a\u001b_apc\u0007b')).toBe('ab');
    expect(block('c1\u009dosc\u0007z')).toBe('c1z');
  });

  it('an unterminated string or escape loses its opener, and the rest stays visible (nothing is hidden)', () => {
    expect(block('safe\u001b]/../../etc/passwd')).toBe('safe/../../etc/passwd');
    expect(block('end\u001b[31')).toBe('end31');
    expect(block('lone\u001b')).toBe('lone');
  });

  it('removes other escapes (ESC 7, ESC c, charset selection) with their final byte', () => {
    expect(block('a\u001b7b\u001b8c\u001bcd\u001b(Be')).toBe('abcde');
  });

  it('removes C0 controls but tab and newline, DEL and C1; \\r and \\r\\n become \\n', () => {
    expect(block('a\u0000b\u0007c\u0008d\u007fe\u0085f\u009fg')).toBe('abcdefg');
    expect(block('tab\there\nnext')).toBe('tab\there\nnext');
    expect(block('harmless\rrm -rf /')).toBe('harmless\nrm -rf /');
    expect(block('dos\r\nline')).toBe('dos\nline');
    expect(block('v\u000bf\u000cx')).toBe('vfx');
  });

  it('removes bidi controls (embeddings, overrides, isolates, marks)', () => {
    const all = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
    expect(block(`a${all}b`)).toBe('ab');
    // Trojan Source: the override no longer reorders what is shown.
    expect(block('access = "user\u202e \u2066// admin\u2069 \u2066"')).toBe('access = "user // admin "');
  });

  it('removes zero-width and invisible characters, tags included', () => {
    expect(block('de\u200blete\u200c_\u200ditem\ufeff\u2060\u2063\u00ad\u180e')).toBe('delete_item');
    const tagged = `ok${String.fromCodePoint(0xe0041, 0xe0042, 0xe007f)}`;
    expect(block(tagged)).toBe('ok');
  });

  it('line separators become newlines; a lone surrogate becomes U+FFFD', () => {
    expect(block('a\u2028b\u2029c')).toBe('a\nb\nc');
    expect(block('x\ud800y\udc00z')).toBe('x\ufffdy\ufffdz');
  });

  it('keeps ordinary text: accents, CJK, right-to-left script, emoji (surrogate pairs)', () => {
    const text = 'café 東京 שלום مرحبا 😀 𝄞';
    expect(block(text)).toBe(text);
  });

  it('a single line collapses every run of blanks and newlines to one space', () => {
    expect(displayLine('  one\n\ttwo\r\nthree   four  ', 100)).toBe('one two three four');
    expect(displayLine('a\u001b[31m\nb', 100)).toBe('a b');
  });

  it('leaves no raw control in any mix, however it is nested', () => {
    const nasty = '\u001b]0;\u001b[31m\u0007\u009b\u001b\u001b[[\u202e\u0000\u200b\u001bP\u001b\\\u2028\ud83d';
    expect(RAW.test(block(nasty))).toBe(false);
    expect(RAW.test(displayLine(nasty.repeat(50), 80))).toBe(false);
  });
});

describe('bounds', () => {
  it('cuts to the bound with an ellipsis inside it', () => {
    expect(displayLine('abcdefghij', 5)).toBe('abcd…');
    expect(displayLine('abcde', 5)).toBe('abcde');
    expect(bound('abc', 0)).toBe('');
  });

  it('never splits a surrogate pair at the cut', () => {
    const emoji = '😀'.repeat(10); // 20 code units
    for (let max = 1; max <= 21; max++) {
      const cut = displayLine(emoji, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
      expect(codePoints(cut.replace('…', '')).every((c) => c === 0x1f600)).toBe(true);
    }
  });

  it('bounds huge input cheaply and still strips what it keeps', () => {
    const huge = `${'\u001b[31mX'.repeat(200_000)}`;
    const shown = displayLine(huge, 100);
    expect(shown).toBe(`${'X'.repeat(99)}…`);
  });

  it('boundBytes keeps whole characters within a UTF-8 byte budget', () => {
    const text = 'é😀'.repeat(2000);
    const cut = boundBytes(text, 4096);
    expect(utf8Length(cut)).toBeLessThanOrEqual(4096);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(boundBytes('short', 4096)).toBe('short');
    expect(utf8Length('a\u00e9\u6771\u{1f600}')).toBe(1 + 2 + 3 + 4);
  });
});

describe('displayJson', () => {
  it('is the same JSON value, with controls and invisible characters escaped so they show', () => {
    const args = { path: '/tmp/\u001b[2Jx', name: 'a\u202eb\u200bc\u0085d', tag: `t${String.fromCodePoint(0xe0041)}` };
    const shown = displayJson(args, 10_000);
    expect(JSON.parse(shown)).toEqual(args);
    expect(RAW.test(shown)).toBe(false);
    expect(shown).toContain('\\u001b[2J');
    expect(shown).toContain('\\u202e');
    expect(shown).toContain('\\udb40\\udc41');
  });

  it('pretty-prints on request and bounds the text', () => {
    expect(displayJson({ a: 1 }, 100, 2)).toBe('{\n  "a": 1\n}');
    expect(displayJson({ long: 'x'.repeat(500) }, 50)).toHaveLength(50);
  });
});
