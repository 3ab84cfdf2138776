// A SandbarApi for tests: answers calls from handlers (recording them) and emits events on demand.
import { vi } from 'vitest';
import type { EventName, Events, MethodArgs, MethodName, MethodResult, SandbarApi } from '../../../shared/contract.js';
import type { ConnectionSource, ConnectionStatus } from '../../../renderer/api/connection.js';

type Handler<M extends MethodName> = (args: MethodArgs<M>) => MethodResult<M> | Promise<MethodResult<M>>;

export class FakeApi implements SandbarApi {
  readonly calls: { method: MethodName; args: unknown }[] = [];
  private readonly listeners = new Map<string, Set<(d: unknown) => void>>();
  private readonly handlers = new Map<string, (args: unknown) => unknown>();

  handle<M extends MethodName>(method: M, handler: Handler<M>): this {
    this.handlers.set(method, handler as (args: unknown) => unknown);
    return this;
  }

  async call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
    this.calls.push({ method, args });
    const handler = this.handlers.get(method);
    if (!handler) throw new Error(`unhandled ${method}`);
    return (await handler(args)) as MethodResult<M>;
  }

  on<E extends EventName>(event: E, listener: (data: Events[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const entry = listener as (d: unknown) => void;
    set.add(entry);
    return () => set.delete(entry);
  }

  emit<E extends EventName>(event: E, data: Events[E]): void {
    for (const l of this.listeners.get(event) ?? []) l(data);
  }

  listenerCount(): number {
    return [...this.listeners.values()].reduce((n, s) => n + s.size, 0);
  }

  callsOf(method: MethodName): unknown[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }
}

export class FakeConnection implements ConnectionSource {
  status: ConnectionStatus = 'connecting';
  private readonly statusListeners = new Set<(s: ConnectionStatus) => void>();
  private readonly resyncListeners = new Set<() => void>();
  retry = vi.fn();

  onStatus(listener: (s: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  set(status: ConnectionStatus): void {
    this.status = status;
    for (const l of this.statusListeners) l(status);
  }

  resync(): void {
    for (const l of this.resyncListeners) l();
  }
}
