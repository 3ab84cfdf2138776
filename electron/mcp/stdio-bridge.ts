// Joins a running Sandbar from stdio: MCP messages from the client go to the instance's HTTP endpoint
// and its answers come back, unchanged, so one engine, one pool and one history serve every client. The
// first message says the revision: a 2025-11-25 (or older) client gets a session upstream as always; a
// 2026-07-28 client's messages go upstream one request each, with the headers that revision wants.
import { StreamableHTTPClientTransport as ModernHttpClientTransport } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StdioServerTransport as ModernStdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { errorMessage } from '../../shared/errors.js';
import type { BridgeTarget } from '../instance-file.js';
import type { Logger } from '../logger.js';
import { dropBlankLines } from './stdio-endpoint.js';
import { opensModern, peekFirstLine } from './stdio-era.js';

/** The part of a transport the bridge uses; both SDKs' transports have it (their message types differ only in name). */
interface Link {
  start(): Promise<void>;
  send(message: JSONRPCMessage): Promise<void>;
  close(): Promise<void>;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
}

/** Bridges until the client closes stdin or the instance goes away; resolves with the reason. */
export async function bridgeStdio(target: BridgeTarget, log: Logger, input: Readable = process.stdin, output: Writable = process.stdout): Promise<string> {
  const { first, rest } = await peekFirstLine(input.pipe(dropBlankLines()));
  const modern = opensModern(first);
  const requestInit = { headers: { authorization: `Bearer ${target.token}` } };
  const legacyUpstream = modern ? undefined : new StreamableHTTPClientTransport(new URL(target.url), { requestInit });
  const upstream: Link = legacyUpstream ?? (new ModernHttpClientTransport(new URL(target.url), { requestInit }) as unknown as Link);
  const local: Link = modern ? (new ModernStdioServerTransport(rest, output) as unknown as Link) : new StdioServerTransport(rest, output);
  let finish!: (reason: string) => void;
  const done = new Promise<string>((resolve) => (finish = resolve));

  local.onmessage = (message: JSONRPCMessage) => {
    upstream.send(message).catch((err: unknown) => {
      log.warn(`the running Sandbar did not take a message: ${errorMessage(err)}`);
      // A request must get an answer, or the client waits forever.
      if ('id' in message && 'method' in message) {
        void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `Sandbar is not reachable at ${target.url}: ${errorMessage(err)}` } });
      }
    });
  };
  upstream.onmessage = (message) => void local.send(message);
  upstream.onerror = (err) => log.debug(`upstream: ${errorMessage(err)}`);
  upstream.onclose = () => finish(modern ? 'the connection to the running instance closed' : 'the running instance closed the session');
  local.onclose = () => finish('stdin closed');
  input.once('end', () => finish('stdin closed'));

  await upstream.start();
  await local.start();
  const reason = await done;
  await legacyUpstream?.terminateSession().catch(() => {});
  await upstream.close().catch(() => {});
  await local.close().catch(() => {});
  return reason;
}
