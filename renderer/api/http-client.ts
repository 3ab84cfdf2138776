// The browser transport under `sandbar serve`: calls are POSTs answered with envelopes; events come over one
// fetch-streamed SSE response (EventSource cannot send the Authorization header), reconnected with backoff.
import {
  EVENT_NAMES,
  httpApi,
  type Envelope,
  type EventName,
  type Events,
  type MethodArgs,
  type MethodName,
  type MethodResult,
  type SandbarApi,
} from '../../shared/contract.js';
import type { ConnectionSource, ConnectionStatus } from './connection.js';
import { ApiCallError, NOT_AUTHORISED_HELP } from './errors.js';
import { SseParser, type SseFrame } from './sse-parser.js';
import type { TokenStore } from './token.js';

export interface HttpApiOptions {
  fetch: typeof fetch;
  tokens: TokenStore;
  /** Prefix for the API paths; '' means the page's own origin. */
  baseUrl?: string;
  /** Reconnect delay: `initialMs`, doubled after each failed attempt, at most `maxMs`. */
  backoff?: { initialMs: number; maxMs: number };
  sleep?: (ms: number) => Promise<void>;
  /** How long `output.*` calls wait for the event connection they bind to. */
  connectTimeoutMs?: number;
}

const EVENTS = new Set<string>(EVENT_NAMES);
type Listener = (data: unknown) => void;

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

const unauthorised = () => new ApiCallError({ code: 'unauthorized', message: `Not authorised. ${NOT_AUTHORISED_HELP}` });

export class HttpApi implements SandbarApi, ConnectionSource {
  status: ConnectionStatus = 'connecting';
  private connectionId: string | null = null;
  private everOpen = false;
  private running = false;
  private stopped = false;
  private abort: AbortController | null = null;
  private wake: (() => void) | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly statusListeners = new Set<(s: ConnectionStatus) => void>();
  private readonly resyncListeners = new Set<() => void>();
  private connectWaiters: ((id: string | null) => void)[] = [];
  private readonly fetchFn: typeof fetch;
  private readonly tokens: TokenStore;
  private readonly baseUrl: string;
  private readonly backoff: { initialMs: number; maxMs: number };
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly connectTimeoutMs: number;

  constructor(options: HttpApiOptions) {
    this.fetchFn = options.fetch;
    this.tokens = options.tokens;
    this.baseUrl = options.baseUrl ?? '';
    this.backoff = options.backoff ?? { initialMs: 500, maxMs: 15_000 };
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  }

  async call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
    const token = this.tokens.get();
    if (!token) {
      this.setStatus('unauthorized');
      throw unauthorised();
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    // Output subscriptions belong to the event connection, so those calls wait for it.
    const connectionId = method.startsWith('output.') ? await this.connected() : this.connectionId;
    if (connectionId) headers[httpApi.connectionHeader] = connectionId;
    let response: Response;
    try {
      response = await this.fetchFn(`${this.baseUrl}${httpApi.call(method)}`, { method: 'POST', headers, body: JSON.stringify(args ?? {}) });
    } catch {
      throw new ApiCallError({ code: 'network', message: 'Sandbar is not reachable. Is `npm run serve` (or the desktop app) still running?' });
    }
    if (response.status === 401) {
      if (this.tokens.get() === token) this.setStatus('unauthorized');
      throw unauthorised();
    }
    const envelope: unknown = await response.json().catch(() => null);
    if (!isEnvelope(envelope)) throw new ApiCallError({ code: 'internal', message: `Unexpected answer from Sandbar (HTTP ${response.status}).` });
    if (!envelope.ok) throw ApiCallError.from(envelope.error);
    // A rotated panel token replaces ours at once: the old one stops working on the server. (Rotating the
    // client token leaves this panel's token alone.)
    if (method === 'endpoint.rotateToken' && (args as { kind?: string } | undefined)?.kind === 'panel') this.tokens.set((envelope.value as { token: string }).token);
    return envelope.value as MethodResult<M>;
  }

  on<E extends EventName>(event: E, listener: (data: Events[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const entry = listener as Listener;
    set.add(entry);
    this.start();
    return () => set.delete(entry);
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  /** Opens the event stream (idempotent). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopped = false;
    void this.loop();
  }

  stop(): void {
    this.stopped = true;
    this.abort?.abort();
    this.wake?.();
  }

  retry(): void {
    if (!this.running) this.start();
    else this.wake?.();
  }

  /** A token from a new link (the fragment changed in this tab): use it and connect again. */
  setToken(token: string): void {
    this.tokens.set(token);
    this.retry();
  }

  private setStatus(status: ConnectionStatus): void {
    if (this.status === status) return;
    this.status = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }

  private connected(): Promise<string | null> {
    if (this.connectionId) return Promise.resolve(this.connectionId);
    this.start();
    return new Promise((resolve) => {
      const done = (id: string | null) => {
        clearTimeout(timer);
        resolve(id);
      };
      const timer = setTimeout(() => {
        this.connectWaiters = this.connectWaiters.filter((w) => w !== done);
        resolve(null);
      }, this.connectTimeoutMs);
      this.connectWaiters.push(done);
    });
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      const token = this.tokens.get();
      if (!token) {
        this.setStatus('unauthorized');
        break;
      }
      this.setStatus(this.everOpen ? 'reconnecting' : 'connecting');
      const abort = new AbortController();
      this.abort = abort;
      let opened = false;
      try {
        const response = await this.fetchFn(`${this.baseUrl}${httpApi.events}`, {
          headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
          cache: 'no-store',
          signal: abort.signal,
        });
        // A token rotated while this request was on its way: try the new one at once.
        if (response.status === 401 && this.tokens.get() !== token) continue;
        if (response.status === 401) {
          this.setStatus('unauthorized');
          break;
        }
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        opened = await this.consume(response.body);
      } catch {
        // Dropped or refused: reconnect below.
      }
      this.connectionId = null;
      if (this.stopped) break;
      failures = opened ? 0 : failures + 1;
      this.setStatus(this.everOpen ? 'reconnecting' : 'connecting');
      await this.pause(Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** Math.max(0, failures - 1)));
    }
    this.running = false;
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        this.wake = null;
        resolve();
      };
      this.wake = finish;
      void this.sleep(ms).then(finish);
    });
  }

  /** Reads one SSE response to its end; true when it got as far as the `connected` frame. */
  private async consume(body: ReadableStream<Uint8Array>): Promise<boolean> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    const state = { opened: false, lastSeq: null as number | null };
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const frame of parser.push(decoder.decode(value, { stream: true }))) this.frame(frame, state);
      }
    } finally {
      reader.cancel().catch(() => {});
    }
    return state.opened;
  }

  private frame(frame: SseFrame, state: { opened: boolean; lastSeq: number | null }): void {
    if (frame.event === 'connected') {
      const id = (JSON.parse(frame.data) as { connectionId?: unknown }).connectionId;
      if (typeof id !== 'string' || !id) return;
      this.connectionId = id;
      state.opened = true;
      const reconnected = this.everOpen;
      this.everOpen = true;
      this.setStatus('open');
      for (const waiter of this.connectWaiters.splice(0)) waiter(id);
      if (reconnected) this.resync();
      return;
    }
    if (!EVENTS.has(frame.event)) return;
    const seq = frame.id === null ? NaN : Number(frame.id);
    if (Number.isFinite(seq)) {
      // A gap means the server dropped messages for this connection: the snapshots must be fetched again.
      if (state.lastSeq !== null && seq !== state.lastSeq + 1) this.resync();
      state.lastSeq = seq;
    }
    let data: unknown;
    try {
      data = JSON.parse(frame.data);
    } catch {
      console.warn(`sandbar: unreadable ${frame.event} event`);
      return;
    }
    for (const listener of [...(this.listeners.get(frame.event) ?? [])]) {
      try {
        listener(data);
      } catch (err) {
        console.error(`sandbar: a ${frame.event} listener failed`, err);
      }
    }
  }

  private resync(): void {
    for (const listener of [...this.resyncListeners]) listener();
  }
}
