// The control API over Electron IPC: one ipcMain.handle per contract method, each call checked for its
// sender before the router sees it, and one event connection per window. Electron is passed in, never imported.
import { ipcChannel, METHOD_NAMES, type Envelope, type EventMessage } from '../../shared/contract.js';
import { errorMessage } from '../../shared/errors.js';
import type { ControlConnection, ControlHandler } from './control-handler.js';

/** The part of IpcMainInvokeEvent the transport reads (plus what `isTrusted` reads). */
export interface IpcInvokeEventLike {
  sender: { id: number };
}

export interface IpcMainLike<E extends IpcInvokeEventLike> {
  handle(channel: string, listener: (event: E, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** The part of WebContents an event connection needs. */
export interface WebContentsLike {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed?(): boolean;
  once(event: 'destroyed', listener: () => void): unknown;
}

export interface WindowAttachment {
  /** The current connection's id (calls from this window carry it). */
  readonly connectionId: string;
  /** Drops the page's subscriptions and starts a fresh stream: call when the page reloads. */
  reset(): void;
  close(): void;
}

export interface IpcTransport {
  /** Streams events to a window until it is destroyed. */
  attachWindow(contents: WebContentsLike): WindowAttachment;
  /** Removes every handler and closes every window's connection. */
  dispose(): void;
}

export const REFUSED_MESSAGE = 'Refused: this call did not come from the Sandbar window (main frame, app origin).';

/** A sender check that throws refuses the call. */
function safely(check: () => boolean): boolean {
  try {
    return check() === true;
  } catch {
    return false;
  }
}

export function registerIpcTransport<E extends IpcInvokeEventLike>(options: {
  ipcMain: IpcMainLike<E>;
  router: ControlHandler;
  isTrusted: (event: E) => boolean;
  /** Told about refused calls (a compromised or misdirected page); never about trusted ones. */
  onRefused?: (method: string, event: E) => void;
}): IpcTransport {
  const { ipcMain, router, isTrusted } = options;
  const connections = new Map<number, ControlConnection>();

  for (const method of METHOD_NAMES) {
    ipcMain.handle(ipcChannel.call(method), async (event, args): Promise<Envelope<unknown>> => {
      if (!safely(() => isTrusted(event))) {
        options.onRefused?.(method, event);
        return { ok: false, error: { code: 'invalid_request', message: REFUSED_MESSAGE } };
      }
      try {
        return await router.call(method, args, { connectionId: connections.get(event.sender.id)?.id, transport: 'ipc' });
      } catch (err) {
        // The router promises never to throw; if it does, the renderer still gets an envelope.
        return { ok: false, error: { code: 'internal', message: errorMessage(err) } };
      }
    });
  }

  function connect(contents: WebContentsLike): ControlConnection {
    const connection = router.connect((message: EventMessage) => {
      if (contents.isDestroyed?.()) return;
      contents.send(ipcChannel.event, message);
    });
    connections.set(contents.id, connection);
    return connection;
  }

  function disconnect(contents: WebContentsLike, connection: ControlConnection): void {
    connection.close();
    if (connections.get(contents.id) === connection) connections.delete(contents.id);
  }

  return {
    attachWindow(contents) {
      connections.get(contents.id)?.close();
      let current: ControlConnection | null = connect(contents);
      const close = () => {
        if (current) disconnect(contents, current);
        current = null;
      };
      contents.once('destroyed', close);
      return {
        get connectionId() {
          return current?.id ?? '';
        },
        reset() {
          if (!current) return;
          disconnect(contents, current);
          current = connect(contents);
        },
        close,
      };
    },
    dispose() {
      for (const method of METHOD_NAMES) ipcMain.removeHandler(ipcChannel.call(method));
      for (const connection of connections.values()) connection.close();
      connections.clear();
    },
  };
}
