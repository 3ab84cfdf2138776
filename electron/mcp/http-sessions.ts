// The 2025-11-25 sessions of the /mcp route, so the endpoint never fills up: clients that reconnect without
// DELETE (most do) leave sessions behind. A session is busy while any of its responses is open (a request in
// flight, or its GET stream); at the cap the least recently used idle one is closed so a new client gets in at
// once, and idle sessions close by themselves after `idleMs`. An evicted client's next request gets 404, which
// the protocol answers with a new initialize.
import type { ServerResponse } from 'node:http';

export interface HttpSession {
  close(): Promise<void> | void;
}

interface Entry<S> {
  session: S;
  /** Responses of this session still open: requests in flight and GET streams. */
  open: number;
  lastUsed: number;
}

export interface HttpSessionsOptions {
  maxSessions: number;
  idleMs: number;
  now?: () => number;
}

export const DEFAULT_MAX_SESSIONS = 256;
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

export class HttpSessions<S extends HttpSession> {
  private readonly entries = new Map<string, Entry<S>>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly options: HttpSessionsOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): S | undefined {
    return this.entries.get(id)?.session;
  }

  add(id: string, session: S): void {
    this.entries.set(id, { session, open: 0, lastUsed: this.now() });
    this.sweeper ??= setInterval(() => this.expire(), Math.min(60_000, Math.max(1000, this.options.idleMs / 4)));
    this.sweeper.unref?.();
  }

  /** The session closed itself (DELETE, or its transport ended). */
  delete(id: string): void {
    this.entries.delete(id);
    if (this.entries.size === 0) this.stopSweeping();
  }

  /** Counts `res` as open for the session until it closes; the session is not idle meanwhile. */
  track(id: string, res: ServerResponse): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.open += 1;
    entry.lastUsed = this.now();
    res.once('close', () => {
      entry.open -= 1;
      entry.lastUsed = this.now();
    });
  }

  /** Room for one more: at the cap, the least recently used idle session goes. False when every one is busy. */
  makeRoom(): boolean {
    if (this.entries.size < this.options.maxSessions) return true;
    let oldest: [string, Entry<S>] | undefined;
    for (const pair of this.entries) {
      if (pair[1].open === 0 && (!oldest || pair[1].lastUsed < oldest[1].lastUsed)) oldest = pair;
    }
    if (!oldest) return false;
    this.evict(oldest[0], oldest[1]);
    return true;
  }

  /** Closes sessions idle for longer than idleMs. */
  expire(): void {
    const cutoff = this.now() - this.options.idleMs;
    for (const [id, entry] of [...this.entries]) if (entry.open === 0 && entry.lastUsed <= cutoff) this.evict(id, entry);
  }

  /** Every session goes (the listener moved or closes). */
  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    this.stopSweeping();
    await Promise.allSettled(all.map((e) => e.session.close()));
  }

  private evict(id: string, entry: Entry<S>): void {
    this.entries.delete(id); // at once: the new client's session takes its place before the close completes
    void Promise.resolve(entry.session.close()).catch(() => {});
    if (this.entries.size === 0) this.stopSweeping();
  }

  private stopSweeping(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
