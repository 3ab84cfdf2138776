// Builds `window.sandbar` from the contract: one function per method, one subscriber per event, nothing
// else. Pure: the preload passes in how to invoke a channel and how to receive the event channel.
import type { Envelope, EventName, MethodName, PreloadApi } from '../../shared/contract.js';
// Names only: the preload bundle must not pull in the contract's zod schemas.
import { EVENT_NAMES, ipcChannel, METHOD_NAMES } from '../../shared/contract-names.js';

export interface PreloadDeps {
  /** `ipcRenderer.invoke(channel, args)`. */
  invoke(channel: string, args: unknown): Promise<unknown>;
  /** Registers the ONE listener for `ipcChannel.event`; called once. */
  onEvent(listener: (message: unknown) => void): void;
  /** Where a throwing listener is reported (it must not stop the other listeners). */
  report?: (err: unknown) => void;
}

const EVENT_SET: ReadonlySet<string> = new Set(EVENT_NAMES);

function isEventMessage(message: unknown): message is { event: EventName; data: unknown } {
  if (typeof message !== 'object' || message === null) return false;
  const event = (message as { event?: unknown }).event;
  return typeof event === 'string' && EVENT_SET.has(event);
}

function asEnvelope(value: unknown): Envelope<unknown> {
  if (typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean') return value as Envelope<unknown>;
  return { ok: false, error: { code: 'internal', message: 'The main process answered without an envelope.' } };
}

export function buildPreloadApi(deps: PreloadDeps): PreloadApi {
  const report = deps.report ?? ((err: unknown) => console.error('sandbar: an event listener threw', err));
  // A Set of wrapper objects, not of functions: contextBridge hands each subscription its own proxy.
  const listeners = new Map<EventName, Set<{ fn: (data: unknown) => void }>>();

  deps.onEvent((message) => {
    if (!isEventMessage(message)) return;
    const subscribers = listeners.get(message.event);
    if (!subscribers) return;
    for (const entry of [...subscribers]) {
      try {
        entry.fn(message.data);
      } catch (err) {
        report(err);
      }
    }
  });

  const call = (method: MethodName) => async (args: unknown): Promise<Envelope<unknown>> => {
    try {
      return asEnvelope(await deps.invoke(ipcChannel.call(method), args));
    } catch (err) {
      // No handler (main still starting) or a cloning failure: still an envelope, never a rejection.
      return { ok: false, error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } };
    }
  };

  const subscribe = (event: EventName) => (listener: (data: unknown) => void): (() => void) => {
    if (typeof listener !== 'function') throw new TypeError(`sandbar.events['${event}'] needs a listener function`);
    const entry = { fn: listener };
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  };

  const methods = Object.fromEntries(METHOD_NAMES.map((m) => [m, call(m)]));
  const events = Object.fromEntries(EVENT_NAMES.map((e) => [e, subscribe(e)]));
  // The casts are where the generic per-entry signatures meet the uniform implementation above.
  return Object.freeze({
    methods: Object.freeze(methods) as unknown as PreloadApi['methods'],
    events: Object.freeze(events) as unknown as PreloadApi['events'],
  });
}
