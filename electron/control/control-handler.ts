// What a transport needs from the control router: one call entry point and per-connection event streams.
// The IPC and HTTP/SSE transports depend on this interface only, so each is tested with a fake.
import type { Envelope, EventMessage } from '../../shared/contract.js';

export interface ControlConnection {
  /** Names this connection in calls (`output.subscribe` binds to it). */
  readonly id: string;
  /** Stops its events and drops its subscriptions. */
  close(): void;
}

/** How a call reached the router: the desktop's IPC (window or tray) or the loopback HTTP API. */
export type CallerTransport = 'ipc' | 'http';

export interface ControlHandler {
  /**
   * The one handler wrapper: checks the method name, parses the arguments with the contract's zod schema,
   * runs the method and answers with an envelope. It never throws.
   */
  call(method: string, args: unknown, caller?: { connectionId?: string | undefined; transport: CallerTransport }): Promise<Envelope<unknown>>;
  /** A new event stream; `send` receives every event message for this connection, in order. */
  connect(send: (message: EventMessage) => void): ControlConnection;
}
