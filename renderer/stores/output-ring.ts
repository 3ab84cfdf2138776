// The live output of one execution, bounded: the last `maxChars` characters and `maxLines` lines, stdout and
// stderr interleaved in arrival order. When the beginning is dropped, `clipped` says so.
import type { Stream } from '../../shared/execution.js';

export interface OutputSegment {
  stream: Stream;
  text: string;
}

export interface RingLimits {
  maxChars: number;
  maxLines: number;
}

export const DEFAULT_RING_LIMITS: RingLimits = { maxChars: 256 * 1024, maxLines: 5_000 };

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Index just past the `n`-th newline of `text`, or -1 when it has fewer. */
function afterNthNewline(text: string, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) {
    at = text.indexOf('\n', at + 1);
    if (at === -1) return -1;
  }
  return at + 1;
}

export class OutputRing {
  clipped = false;
  private segs: OutputSegment[] = [];
  private chars = 0;
  private lines = 0;

  constructor(private readonly limits: RingLimits = DEFAULT_RING_LIMITS) {}

  get size(): { chars: number; lines: number } {
    return { chars: this.chars, lines: this.lines };
  }

  push(stream: Stream, text: string): void {
    if (!text) return;
    const last = this.segs.at(-1);
    if (last && last.stream === stream) last.text += text;
    else this.segs.push({ stream, text });
    this.chars += text.length;
    this.lines += countLines(text);
    this.trim();
  }

  /** Starts over from a server-side buffer (what `output.subscribe` returns). */
  reset(from?: { stdout: string; stderr: string; clipped: boolean }): void {
    this.segs = [];
    this.chars = 0;
    this.lines = 0;
    this.clipped = false;
    if (!from) return;
    this.push('stdout', from.stdout);
    this.push('stderr', from.stderr);
    this.clipped ||= from.clipped;
  }

  /** A copy of the segments, oldest first; with `maxLines`, only those covering the last lines. */
  segments(maxLines?: number): OutputSegment[] {
    if (maxLines === undefined || this.lines <= maxLines) return this.segs.map((s) => ({ ...s }));
    const out: OutputSegment[] = [];
    // +1: the last line is usually still open (no newline yet) and should not cost a whole line.
    let needed = maxLines + 1;
    for (let i = this.segs.length - 1; i >= 0 && needed > 0; i--) {
      const seg = this.segs[i]!;
      let at = seg.text.length;
      while (needed > 0 && at > 0) {
        const nl = seg.text.lastIndexOf('\n', at - 1);
        if (nl === -1) {
          at = 0;
          break;
        }
        needed--;
        at = needed === 0 ? nl + 1 : nl;
      }
      out.unshift({ stream: seg.stream, text: seg.text.slice(needed === 0 ? at : 0) });
    }
    return out;
  }

  text(stream?: Stream): string {
    return this.segs
      .filter((s) => !stream || s.stream === stream)
      .map((s) => s.text)
      .join('');
  }

  private trim(): void {
    const { maxChars, maxLines } = this.limits;
    while (this.segs.length > 0 && (this.chars > maxChars || this.lines > maxLines)) {
      const first = this.segs[0]!;
      let cut = Math.max(0, this.chars - maxChars);
      if (this.lines > maxLines) {
        const byLines = afterNthNewline(first.text, this.lines - maxLines);
        cut = Math.max(cut, byLines === -1 ? first.text.length : byLines);
      }
      // Start the kept text at a line boundary when one is near, so the view never opens mid-line.
      if (cut > 0 && cut < first.text.length && first.text[cut - 1] !== '\n') {
        const nl = first.text.indexOf('\n', cut);
        if (nl !== -1 && nl - cut < 1_000) cut = nl + 1;
      }
      this.clipped = true;
      if (cut >= first.text.length) {
        this.segs.shift();
        this.chars -= first.text.length;
        this.lines -= countLines(first.text);
      } else {
        const dropped = first.text.slice(0, cut);
        first.text = first.text.slice(cut);
        this.chars -= dropped.length;
        this.lines -= countLines(dropped);
      }
    }
  }
}
