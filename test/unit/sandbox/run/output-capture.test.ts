// One output stream kept up to a byte cap, cut on a character boundary, with a visible marker.
import { describe, expect, it } from 'vitest';
import { OutputCapture, truncateUtf8, withoutCutMarker } from '../../../../electron/sandbox/run/output-capture.js';

const bytes = (s: string) => Buffer.byteLength(s);

describe('truncateUtf8', () => {
  it('returns short text unchanged', () => {
    expect(truncateUtf8('hello', 5)).toBe('hello');
    expect(truncateUtf8('hello', 100)).toBe('hello');
  });

  it('cuts ASCII at exactly maxBytes', () => {
    expect(truncateUtf8('hello world', 5)).toBe('hello');
  });

  it('returns nothing for a zero or negative budget', () => {
    expect(truncateUtf8('hello', 0)).toBe('');
    expect(truncateUtf8('hello', -3)).toBe('');
  });

  it('never splits a 2-byte character', () => {
    // 'é' is 2 bytes: 'aé' is 3 bytes.
    expect(truncateUtf8('aéb', 2)).toBe('a');
    expect(truncateUtf8('aéb', 3)).toBe('aé');
  });

  it('never splits a 3-byte character, wherever the cut falls', () => {
    const text = '€€€'; // 9 bytes
    expect(truncateUtf8(text, 1)).toBe('');
    expect(truncateUtf8(text, 2)).toBe('');
    expect(truncateUtf8(text, 3)).toBe('€');
    expect(truncateUtf8(text, 5)).toBe('€');
    expect(truncateUtf8(text, 6)).toBe('€€');
    expect(truncateUtf8(text, 8)).toBe('€€');
  });

  it('never splits a 4-byte character', () => {
    expect(truncateUtf8('x🎉', 4)).toBe('x');
    expect(truncateUtf8('x🎉', 5)).toBe('x🎉');
  });

  it('is always a prefix that fits and contains no replacement character', () => {
    const text = 'aé€🎉b'.repeat(20);
    for (let max = 0; max <= bytes(text) + 2; max++) {
      const cut = truncateUtf8(text, max);
      expect(text.startsWith(cut)).toBe(true);
      expect(bytes(cut)).toBeLessThanOrEqual(max);
      // Longest prefix: one more character would not fit.
      if (cut.length < text.length) {
        const next = String.fromCodePoint(text.codePointAt(cut.length)!);
        expect(bytes(cut) + bytes(next)).toBeGreaterThan(max);
      }
      expect(cut).not.toContain('\ufffd');
    }
  });
});

describe('OutputCapture', () => {
  it('keeps everything under the cap and is not truncated', () => {
    const c = new OutputCapture('stdout', 1024);
    expect(c.append('hello\n')).toBe('hello\n');
    expect(c.append('world\n')).toBe('world\n');
    expect(c.text()).toBe('hello\nworld\n');
    expect(c.size).toBe(12);
    expect(c.truncated).toBe(false);
  });

  it('keeps exactly the cap when the output fills it exactly', () => {
    const c = new OutputCapture('stdout', 1024);
    expect(c.append('a'.repeat(1024))).toBe('a'.repeat(1024));
    expect(c.size).toBe(1024);
    expect(c.truncated).toBe(false);
    expect(c.text()).toBe('a'.repeat(1024));
  });

  it('keeps exactly capBytes and marks truncation when more is offered', () => {
    const c = new OutputCapture('stdout', 1024);
    c.append('a'.repeat(1000));
    const kept = c.append('b'.repeat(100));
    expect(kept).toBe('b'.repeat(24));
    expect(c.size).toBe(1024);
    expect(c.truncated).toBe(true);
  });

  it('truncates when one byte more than the cap arrives after an exact fill', () => {
    const c = new OutputCapture('stderr', 1024);
    c.append('a'.repeat(1024));
    expect(c.append('!')).toBe('');
    expect(c.truncated).toBe(true);
    expect(c.size).toBe(1024);
  });

  it('returns an empty string for every append after the cap', () => {
    const c = new OutputCapture('stdout', 1024);
    c.append('x'.repeat(2000));
    expect(c.append('more')).toBe('');
    expect(c.append('')).toBe('');
    expect(c.append('y'.repeat(5000))).toBe('');
    expect(c.size).toBe(1024);
  });

  it('counts bytes, not characters, and never splits a character at the cap', () => {
    const c = new OutputCapture('stdout', 1024);
    c.append('a'.repeat(1022));
    const kept = c.append('€€'); // 6 bytes; only 2 left, not enough for one €
    expect(kept).toBe('');
    expect(c.truncated).toBe(true);
    expect(c.size).toBe(1022);
    expect(c.text()).not.toContain('\ufffd');
  });

  it('keeps whole multi-byte characters up to the cap', () => {
    const c = new OutputCapture('stdout', 1024);
    const kept = c.append('€'.repeat(400)); // 1200 bytes
    expect(kept).toBe('€'.repeat(341)); // 1023 bytes
    expect(c.size).toBe(1023);
    expect(bytes(c.text().split('\n')[0]!)).toBe(1023);
  });

  it('appends a truncation marker naming the stream and the cap', () => {
    const c = new OutputCapture('stderr', 1024);
    c.append('z'.repeat(2000));
    expect(c.text()).toBe(`${'z'.repeat(1024)}\n[sandbar: stderr truncated at 1 KiB; the run was stopped]\n`);
  });

  it('puts the marker straight after a kept newline', () => {
    const c = new OutputCapture('stdout', 1024 * 1024);
    c.append(`${'l'.repeat(1024 * 1024 - 1)}\n`);
    c.append('over');
    expect(c.text()).toBe(`${'l'.repeat(1024 * 1024 - 1)}\n[sandbar: stdout truncated at 1 MiB; the run was stopped]\n`);
  });

  it('shows only the marker when nothing could be kept', () => {
    const c = new OutputCapture('stdout', 2);
    c.append('€');
    expect(c.truncated).toBe(true);
    expect(c.text()).toBe('[sandbar: stdout truncated at 2 B; the run was stopped]\n');
  });

  it('has no marker when not truncated', () => {
    const c = new OutputCapture('stdout', 1024);
    c.append('fine');
    expect(c.text()).not.toContain('[sandbar:');
  });

  it('says the sandbox cut the stream at the cap and how much the code printed, exactly', () => {
    const c = new OutputCapture('stdout', 1024 * 1024);
    c.append('x'.repeat(1024 * 1024));
    c.markCut(1_100_000);
    c.markCut(10_000_001); // the relay's later count, then its final one
    expect(c.truncated).toBe(false); // the host's own cap was never passed
    expect(c.wasCut).toBe(true);
    expect(c.printed).toBe(10_000_001);
    expect(c.text()).toBe(`${'x'.repeat(1024 * 1024)}\n[sandbar: stdout cut at 1 MiB (outputCapBytes); the code printed 9.5 MiB (10,000,001 bytes)]\n`);
    // A run stopped before it ended: the count so far is a lower bound.
    expect(c.text(false)).toContain('the code printed at least 9.5 MiB (10,000,001 bytes)]');
  });

  it('never reports less printed than it kept', () => {
    const c = new OutputCapture('stderr', 4096);
    c.append('e'.repeat(100));
    c.markCut(10);
    expect(c.printed).toBe(100);
  });
});

describe('withoutCutMarker', () => {
  it('takes off the last line a capture added, and nothing else', () => {
    expect(withoutCutMarker('a\nb\n[sandbar: stdout cut at 1 MiB (outputCapBytes); the code printed 2 MiB (2,097,152 bytes)]\n')).toBe('a\nb\n');
    expect(withoutCutMarker('[sandbar: stderr truncated at 1 KiB; the run was stopped]\n')).toBe('');
    expect(withoutCutMarker('a [sandbar: stdout cut at 1 MiB]\n')).toBe('a [sandbar: stdout cut at 1 MiB]\n');
    expect(withoutCutMarker('plain\n')).toBe('plain\n');
  });
});
