// MCP over stdio: nothing but protocol frames on stdout; blank input lines are dropped before the SDK
// sees them (the reference's SDK answered them with error notifications).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Transform, type Readable, type Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

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
  const filtered = input.pipe(dropBlankLines());
  const transport = new StdioServerTransport(filtered, output);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    input.once('end', () => resolve());
    input.once('close', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
}
