// The live tail of one execution's output: what a panel that subscribes mid-run is shown first. Bounded,
// so a run printing gigabytes costs the main process a fixed amount of memory.
import type { Stream } from '../../shared/execution.js';

export const TAIL_LIMIT_CHARS = 256 * 1024;

export class OutputTail {
  stdout = '';
  stderr = '';
  clipped = false;

  append(stream: Stream, data: string): void {
    const next = this[stream] + data;
    if (next.length > TAIL_LIMIT_CHARS) {
      this.clipped = true;
      this[stream] = next.slice(next.length - TAIL_LIMIT_CHARS);
    } else {
      this[stream] = next;
    }
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

  get empty(): boolean {
    return this.pending.size === 0;
  }

  drain(): { id: string; stdout: string; stderr: string }[] {
    const out = [...this.pending].map(([id, e]) => ({ id, ...e }));
    this.pending.clear();
    return out;
  }
}
