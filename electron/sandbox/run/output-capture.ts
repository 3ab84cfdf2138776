// Keeps at most `capBytes` of one output stream; says when more was offered than kept.
import { formatBytes } from '../../../shared/limits.js';
import type { Stream } from '../../../shared/execution.js';

export class OutputCapture {
  private readonly parts: string[] = [];
  private bytes = 0;
  truncated = false;

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

  get size(): number {
    return this.bytes;
  }

  text(): string {
    const body = this.parts.join('');
    if (!this.truncated) return body;
    const sep = body.endsWith('\n') || body.length === 0 ? '' : '\n';
    return `${body}${sep}[sandbar: ${this.stream} truncated at ${formatBytes(this.capBytes)}; the run was stopped]\n`;
  }
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
