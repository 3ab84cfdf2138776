// The state of the link to the main process, for the header and the bridge. IPC is always open; HTTP
// connects, drops, reconnects, or is refused for want of a valid token.

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'unauthorized';

export interface ConnectionSource {
  readonly status: ConnectionStatus;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  /** Called after a reconnect or a gap in the event sequence: snapshots may be stale, fetch them again. */
  onResync(listener: () => void): () => void;
  /** Try again after `unauthorized` (a new token may have arrived). */
  retry(): void;
}

/** For transports that cannot drop (Electron IPC, the dev fake). */
export function alwaysOpen(): ConnectionSource {
  return {
    status: 'open',
    onStatus: () => () => {},
    onResync: () => () => {},
    retry: () => {},
  };
}
