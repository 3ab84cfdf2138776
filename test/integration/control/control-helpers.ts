// A whole Sandbar app (core, control API, listener) in this process with real podman, and two callers of
// its control API: over HTTP + SSE as the browser panel does, and over the IPC transport as the desktop
// window does (ipcMain and the window are the only fakes: the Electron binary cannot run here).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { httpApi, ipcChannel, type EventMessage, type EventName, type Events, type MethodArgs, type MethodName, type MethodResult } from '../../../shared/contract.js';
import type { ApiError, Envelope } from '../../../shared/contract.js';
import { registerIpcTransport } from '../../../electron/control/ipc-transport.js';
import { SseParser } from '../../../renderer/api/sse-parser.js';
import { createLogger } from '../../../electron/logger.js';
import { createSandbarApp, type SandbarApp, type SandbarAppOptions } from '../../../electron/sandbar-app.js';
import { sandbox, waitFor } from '../helpers.js';

const require = createRequire(import.meta.url);
export const EVERYTHING_BIN = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

export interface TestApp {
  app: SandbarApp;
  home: string;
  /** The fake user HOME (client config files live here). */
  userHome: string;
  token(): string;
  baseUrl(): string;
  close(): Promise<void>;
}

/** What the desktop passes besides the basics (its confirmation dialog), for the tests that need it. */
export type DesktopOptions = Pick<SandbarAppOptions, 'confirmHostExec'>;

export async function startTestApp(settings: Record<string, unknown> = {}, env: Record<string, string> = {}, desktop: DesktopOptions = {}): Promise<TestApp> {
  const home = mkdtempSync(path.join(tmpdir(), 'sandbar-app-'));
  const userHome = mkdtempSync(path.join(tmpdir(), 'sandbar-user-'));
  mkdirSync(path.join(userHome, '.config', 'Claude'), { recursive: true });
  writeFileSync(
    path.join(home, 'settings.json'),
    JSON.stringify({
      image: sandbox.image,
      poolSize: 0,
      httpPort: 0,
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] } },
      ...settings,
    }),
  );
  const app = createSandbarApp({
    env: { ...process.env, SANDBAR_HOME: home, HOME: userHome, XDG_CONFIG_HOME: path.join(userHome, '.config'), SANDBAR_LOG_LEVEL: 'error', ...env },
    log: createLogger('test', { SANDBAR_LOG_LEVEL: 'error' }),
    healthIntervalMs: 500,
    ...desktop,
  });
  await app.start();
  return {
    app,
    home,
    userHome,
    token: () => tokenOf(app),
    baseUrl: () => `http://127.0.0.1:${app.endpoint.port}`,
    close: () => app.dispose(5000),
  };
}

function tokenOf(app: SandbarApp): string {
  // The same way the panel gets it: the one-time fragment of the panel link.
  return new URL(app.panelUrl()!).hash.replace('#token=', '');
}

/** What the tests need of a transport: a typed call and the ordered events it received. */
export interface ApiCaller {
  name: 'http' | 'ipc';
  call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<Envelope<MethodResult<M>>>;
  value<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>>;
  events: EventMessage[];
  next<E extends EventName>(event: E, match?: (data: Events[E]) => boolean, timeoutMs?: number): Promise<Events[E]>;
  close(): void;
}

function withHelpers(name: 'http' | 'ipc', call: ApiCaller['call'], events: EventMessage[], close: () => void): ApiCaller {
  return {
    name,
    call,
    events,
    async value(method, args) {
      const answer = await call(method, args);
      if (!answer.ok) throw Object.assign(new Error(`${method}: ${answer.error.message}`), { error: answer.error as ApiError });
      return answer.value;
    },
    async next(event, match = () => true, timeoutMs = 60_000) {
      let found: EventMessage | undefined;
      await waitFor(() => (found = events.find((e) => e.event === event && match(e.data as never))) !== undefined, timeoutMs, 20);
      if (!found) throw new Error(`no ${event} event within ${timeoutMs} ms`);
      return found.data as never;
    },
    close,
  };
}

/** HTTP + SSE, read with fetch streaming exactly as the browser panel does. */
export async function httpCaller(t: TestApp): Promise<ApiCaller> {
  const events: EventMessage[] = [];
  const abort = new AbortController();
  const response = await fetch(`${t.baseUrl()}${httpApi.events}`, { headers: { authorization: `Bearer ${t.token()}` }, signal: abort.signal });
  if (!response.ok || !response.body) throw new Error(`event stream refused: ${response.status}`);
  let connectionId = '';
  const connected = new Promise<void>((resolve) => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new SseParser();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          // The panel's own parser: the server's stream is checked against what the panel reads.
          for (const frame of parser.push(value)) {
            if (frame.event === 'connected') {
              connectionId = (JSON.parse(frame.data) as { connectionId: string }).connectionId;
              resolve();
            } else {
              events.push({ event: frame.event as EventName, seq: Number(frame.id), data: JSON.parse(frame.data) } as EventMessage);
            }
          }
        }
      } catch {
        // aborted by close()
      }
    })();
  });
  await connected;
  const call: ApiCaller['call'] = async (method, args) => {
    const res = await fetch(`${t.baseUrl()}${httpApi.call(method)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token()}`, 'content-type': 'application/json', [httpApi.connectionHeader]: connectionId },
      body: JSON.stringify(args),
    });
    return (await res.json()) as never;
  };
  return withHelpers('http', call, events, () => abort.abort());
}

/** The IPC transport with a stand-in ipcMain and window; the router behind it is the real one. */
export function ipcCaller(t: TestApp): ApiCaller {
  const handlers = new Map<string, (event: { sender: { id: number } }, ...args: unknown[]) => Promise<unknown>>();
  const events: EventMessage[] = [];
  let destroyed: (() => void) | undefined;
  const transport = registerIpcTransport({
    ipcMain: { handle: (channel, listener) => void handlers.set(channel, listener), removeHandler: (channel) => void handlers.delete(channel) },
    router: t.app.router,
    isTrusted: () => true,
  });
  transport.attachWindow({
    id: 7,
    send: (channel, message) => {
      if (channel === ipcChannel.event) events.push(message as EventMessage);
    },
    once: (_event, listener) => {
      destroyed = listener;
    },
  });
  const call: ApiCaller['call'] = async (method, args) => {
    const handler = handlers.get(ipcChannel.call(method));
    if (!handler) throw new Error(`no IPC handler for ${method}`);
    // Structured clone is what IPC does to arguments and answers.
    return structuredClone(await handler({ sender: { id: 7 } }, structuredClone(args))) as never;
  };
  return withHelpers('ipc', call, events, () => {
    destroyed?.();
    transport.dispose();
  });
}
