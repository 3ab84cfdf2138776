// Joins a running Sandbar from stdio: MCP messages from the client go to the instance's HTTP endpoint
// and its answers come back, unchanged, so one engine, one pool and one history serve every client.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { errorMessage } from '../../shared/errors.js';
import type { BridgeTarget } from '../instance-file.js';
import type { Logger } from '../logger.js';
import { dropBlankLines } from './stdio-endpoint.js';

/** Bridges until the client closes stdin or the instance goes away; resolves with the reason. */
export async function bridgeStdio(target: BridgeTarget, log: Logger, input: Readable = process.stdin, output: Writable = process.stdout): Promise<string> {
  const upstream = new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: { authorization: `Bearer ${target.token}` } } });
  const local = new StdioServerTransport(input.pipe(dropBlankLines()), output);
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
  upstream.onclose = () => finish('the running instance closed the session');
  local.onclose = () => finish('stdin closed');
  input.once('end', () => finish('stdin closed'));

  await upstream.start();
  await local.start();
  const reason = await done;
  await upstream.terminateSession().catch(() => {});
  await upstream.close().catch(() => {});
  await local.close().catch(() => {});
  return reason;
}
