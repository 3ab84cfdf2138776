// The control API's one implementation point: every call from every transport passes through `call`
// (method check, zod-parsed arguments, error envelope), and every event reaches every connection in order.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { isMethodName, methods, type Envelope, type EventMessage, type EventName, type Events, type MethodName, type MethodResult, type Methods } from '../../shared/contract.js';
import { AppError, errorMessage } from '../../shared/errors.js';
import type { Logger } from '../logger.js';
import type { CallerTransport, ControlConnection, ControlHandler } from './control-handler.js';

export interface CallContext {
  /** The event connection of the caller, when it has one (IPC window, SSE stream). */
  connectionId: string | undefined;
  /** Who is calling: the desktop window or tray ('ipc') may be asked to confirm; HTTP callers never can. */
  transport: CallerTransport;
}

export type MethodImpl<M extends MethodName> = (args: z.output<Methods[M]['args']>, ctx: CallContext) => Promise<MethodResult<M>> | MethodResult<M>;
export type MethodTable = { [M in MethodName]: MethodImpl<M> };

interface Connection {
  send: (message: EventMessage) => void;
  seq: number;
}

/** Dotted path → first message, for zod errors (arguments and settings alike). */
export function zodFields(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '(arguments)';
    fields[key] ??= issue.message;
  }
  return fields;
}

export class ControlRouter implements ControlHandler {
  private readonly connections = new Map<string, Connection>();
  private readonly closeListeners = new Set<(connectionId: string) => void>();

  constructor(
    private readonly table: MethodTable,
    private readonly log: Logger,
  ) {}

  /** Callers that do not say who they are get the least: HTTP's rights (no confirmations). */
  async call(method: string, args: unknown, caller: { connectionId?: string | undefined; transport: CallerTransport } = { transport: 'http' }): Promise<Envelope<unknown>> {
    const { connectionId, transport } = caller;
    if (!isMethodName(method)) return { ok: false, error: { code: 'invalid_request', message: `Unknown method: ${method}` } };
    const parsed = methods[method].args.safeParse(args ?? {});
    if (!parsed.success) {
      const fields = zodFields(parsed.error);
      const detail = Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join('; ');
      return { ok: false, error: { code: 'invalid_request', message: `Invalid arguments for ${method}: ${detail}`, fields } };
    }
    try {
      const impl = this.table[method] as MethodImpl<MethodName>;
      const value = await impl(parsed.data as never, { connectionId: connectionId && this.connections.has(connectionId) ? connectionId : undefined, transport });
      return { ok: true, value };
    } catch (err) {
      if (err instanceof AppError) {
        return { ok: false, error: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) } };
      }
      // Unexpected: the details go to the log, the caller gets a sentence without a stack trace.
      this.log.error(`${method} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return { ok: false, error: { code: 'internal', message: `${method} failed: ${errorMessage(err)}` } };
    }
  }

  connect(send: (message: EventMessage) => void): ControlConnection {
    const id = randomUUID();
    this.connections.set(id, { send, seq: 0 });
    return {
      id,
      close: () => {
        if (!this.connections.delete(id)) return;
        for (const listener of this.closeListeners) listener(id);
      },
    };
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Per-connection state (output subscriptions) is dropped through this when a window or stream goes. */
  onConnectionClosed(listener: (connectionId: string) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  broadcast<E extends EventName>(event: E, data: Events[E]): void {
    for (const id of this.connections.keys()) this.sendTo(id, event, data);
  }

  sendTo<E extends EventName>(connectionId: string, event: E, data: Events[E]): void {
    const connection = this.connections.get(connectionId);
    if (!connection) return;
    try {
      connection.send({ event, seq: ++connection.seq, data } as EventMessage);
    } catch (err) {
      // A transport that cannot deliver any more (window gone, socket closed) loses its connection.
      this.log.debug(`dropping control connection ${connectionId}: ${errorMessage(err)}`);
      this.connections.delete(connectionId);
      for (const listener of this.closeListeners) listener(connectionId);
    }
  }
}
