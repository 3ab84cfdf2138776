// The live tail of one execution's output: what a panel that subscribes mid-run is shown first. Bounded,
// so a run printing gigabytes costs the main process a fixed amount of memory.
import type { Stream } from '../../shared/execution.js';

export const TAIL_LIMIT_CHARS = 256 * 1024;

export class OutputTail {
  private readonly text = { stdout: '', stderr: '' };
  private dropped = false;
  /** How often the text was cut back (each cut copies up to the limit): stays rare whatever the line rate. */
  cuts = 0;

  /**
   * Cheap per call: the text is cut back only once it is twice the limit, so a full tail does not copy
   * 256 KiB for every printed line.
   */
  append(stream: Stream, data: string): void {
    const next = this.text[stream] + data;
    if (next.length > 2 * TAIL_LIMIT_CHARS) {
      this.dropped = true;
      this.cuts++;
      this.text[stream] = next.slice(next.length - TAIL_LIMIT_CHARS);
    } else {
      this.text[stream] = next;
    }
  }

  get stdout(): string {
    return this.tail('stdout');
  }

  get stderr(): string {
    return this.tail('stderr');
  }

  /** True when the tail no longer starts at the run's first byte. */
  get clipped(): boolean {
    return this.dropped || this.text.stdout.length > TAIL_LIMIT_CHARS || this.text.stderr.length > TAIL_LIMIT_CHARS;
  }

  private tail(stream: Stream): string {
    const text = this.text[stream];
    return text.length > TAIL_LIMIT_CHARS ? text.slice(text.length - TAIL_LIMIT_CHARS) : text;
  }
}

/** Output waiting for the next flush to one connection, per execution, in arrival order. */
export class OutputBatch {
  private readonly pending = new Map<string, { stdout: string; stderr: string }>();

  add(id: string, stream: Stream, data: string): void {
    let entry = this.pending.get(id);
    if (!entry) this.pending.set(id, (entry = { stdout: '', stderr: '' }));
    entry[stream] += data;
  }

  discard(id: string): void {
    this.pending.delete(id);
  }

  get empty(): boolean {
    return this.pending.size === 0;
  }

  drain(): { id: string; stdout: string; stderr: string }[] {
    const out = [...this.pending].map(([id, e]) => ({ id, ...e }));
    this.pending.clear();
    return out;
  }
}
