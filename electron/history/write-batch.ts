// History writes off the hot path: events are kept as they happen and written together, in one
// transaction, on the next turn of the event loop, so a run's answer goes out before its rows are written.
// Nothing is lost on the way: every read of the store flushes first, dispose flushes, and while anything
// waits the process's 'exit' flushes too (SQLite writes are synchronous, so they complete in that handler).
// Only a hard kill within that one turn (SIGKILL, a power cut) loses that turn's events.
export class WriteBatch<T> {
  private pending: T[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private readonly onExit = () => this.flush();

  constructor(private readonly write: (items: T[]) => void) {}

  get size(): number {
    return this.pending.length;
  }

  add(item: T): void {
    this.pending.push(item);
    if (this.scheduled) return;
    // Kept referenced: a process with writes waiting does not end before they are made.
    this.scheduled = setImmediate(() => this.flush());
    process.once('exit', this.onExit);
  }

  /** Writes what waits, now. Cheap when nothing does: every read calls it. */
  flush(): void {
    if (this.scheduled) {
      clearImmediate(this.scheduled);
      this.scheduled = undefined;
      process.off('exit', this.onExit);
    }
    if (this.pending.length === 0) return;
    const items = this.pending;
    this.pending = [];
    this.write(items);
  }
}
