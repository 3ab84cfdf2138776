// MCP over stdio: nothing but protocol frames on stdout; blank input lines are dropped before the SDK
// sees them (the reference's SDK answered them with error notifications). The first message says the
// revision: 2026-07-28 goes to the v2 SDK's stdio entry, anything else to the 2025-11-25 server as always.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server as ModernServer } from '@modelcontextprotocol/server';
import { serveStdio as serveModernStdio, StdioServerTransport as ModernStdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { Transform, type Readable, type Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { opensModern, peekFirstLine } from './stdio-era.js';

/** Passes input through line by line, minus lines that are empty or only whitespace. */
export function dropBlankLines(): Transform {
  let pending = '';
  const decoder = new StringDecoder('utf8');
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = pending + decoder.write(chunk);
      const lines = text.split('\n');
      pending = lines.pop() ?? '';
      const kept = lines.filter((l) => l.trim() !== '');
      done(null, kept.length ? `${kept.join('\n')}\n` : undefined);
    },
    flush(done) {
      const rest = pending + decoder.end();
      done(null, rest.trim() ? rest : undefined);
    },
  });
}

/** Serves until the client closes stdin (or the transport fails). */
export async function serveStdio(server: Server, input: Readable = process.stdin, output: Writable = process.stdout): Promise<void> {
  await serveLegacy(server, input.pipe(dropBlankLines()), input, output);
}

async function serveLegacy(server: Server, lines: Readable, input: Readable, output: Writable): Promise<void> {
  const transport = new StdioServerTransport(lines, output);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    input.once('end', () => resolve());
    input.once('close', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
}

export interface BothRevisions {
  /** The 2025-11-25 (and older) server, made once if the connection opens that way. */
  legacy: () => Server;
  /** The 2026-07-28 server: the v2 entry makes one per connection (and one for a `server/discover` probe). */
  modern: () => ModernServer;
  onerror?: (err: Error) => void;
}

/** Serves one stdio connection in the revision its first message speaks, until the client closes stdin. */
export async function serveStdioEitherRevision(servers: BothRevisions, input: Readable = process.stdin, output: Writable = process.stdout): Promise<void> {
  const { first, rest } = await peekFirstLine(input.pipe(dropBlankLines()));
  if (!opensModern(first)) return serveLegacy(servers.legacy(), rest, input, output);
  const closed = new Promise<void>((resolve) => {
    rest.once('end', () => resolve());
    input.once('end', () => resolve());
    input.once('close', () => resolve());
  });
  const handle = serveModernStdio(() => servers.modern(), {
    // A connection that opened in 2026-07-28 stays there; `initialize` later on is refused.
    legacy: 'reject',
    transport: new ModernStdioServerTransport(rest, output),
    ...(servers.onerror ? { onerror: servers.onerror } : {}),
  });
  await closed;
  await handle.close().catch(() => {});
}
