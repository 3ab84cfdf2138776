// Keeps at most `capBytes` of one output stream and says, in a last line, when the stream was cut: by the
// sandbox at the cap (it counts what the code printed past it), or by the host when the sandbox did not.
import { formatBytes } from '../../../shared/limits.js';
import type { Stream } from '../../../shared/execution.js';

export class OutputCapture {
  private readonly parts: string[] = [];
  private bytes = 0;
  /** The host's own cap was reached: the sandbox sent more than it may (its relay was bypassed). */
  truncated = false;
  /** The sandbox cut the stream at the cap; `printed` is what the code printed on it in all (so far). */
  private cut = false;
  private printedBytes = 0;

  constructor(
    readonly stream: Stream,
    private readonly capBytes: number,
  ) {}

  /** Returns the part that was kept (to stream to listeners), or '' once the cap is reached. */
  append(data: string): string {
    if (this.truncated) return '';
    const size = Buffer.byteLength(data);
    if (this.bytes + size <= this.capBytes) {
      this.parts.push(data);
      this.bytes += size;
      return data;
    }
    const kept = truncateUtf8(data, this.capBytes - this.bytes);
    this.parts.push(kept);
    this.bytes += Buffer.byteLength(kept);
    this.truncated = true;
    return kept;
  }

  /** The sandbox says it cut this stream and the code has printed `printed` bytes on it. */
  markCut(printed: number): void {
    this.cut = true;
    this.printedBytes = Math.max(this.printedBytes, printed);
  }

  get size(): number {
    return this.bytes;
  }

  /** Cut by either side: the result says the stream is not whole. */
  get wasCut(): boolean {
    return this.truncated || this.cut;
  }

  /** What the code printed on this stream, when it was cut (never less than what was kept). */
  get printed(): number | undefined {
    return this.wasCut ? Math.max(this.printedBytes, this.bytes) : undefined;
  }

  /** `final`: the run ended on its own, so the sandbox's count is the whole of what was printed. */
  text(final = true): string {
    const body = this.parts.join('');
    if (!this.wasCut) return body;
    const sep = body.endsWith('\n') || body.length === 0 ? '' : '\n';
    return `${body}${sep}${this.marker(final)}\n`;
  }

  private marker(final: boolean): string {
    if (this.truncated) return `[sandbar: ${this.stream} truncated at ${formatBytes(this.capBytes)}; the run was stopped]`;
    return `[sandbar: ${this.stream} cut at ${formatBytes(this.capBytes)} (outputCapBytes); the code printed ${final ? '' : 'at least '}${printedWords(this.printed!)}]`;
  }
}

/** "9.5 MiB (10,000,001 bytes)": the rounded size and the exact count. */
export function printedWords(bytes: number): string {
  return `${formatBytes(bytes)} (${bytes.toLocaleString('en-US')} bytes)`;
}

/** A stream's text without the `[sandbar: …]` line a capture or an earlier cut ended it with. */
export function withoutCutMarker(text: string): string {
  return text.replace(/(?<=^|\n)\[sandbar: (stdout|stderr) (cut|truncated) [^\n]*\]\n$/, '');
}

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8 without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  const buf = Buffer.from(text);
  if (buf.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}
