// Which MCP revision a stdio connection speaks, from its first message: a 2026-07-28 client puts the
// revision in every request's `_meta` envelope (its first is usually `server/discover`); a 2025-11-25 or
// older one opens with `initialize` and no envelope. The line is read, then handed on untouched, so the
// chosen side sees the stream from its first byte.
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { PassThrough, type Readable } from 'node:stream';

/** True when a message claims a revision in its envelope (a later, unknown one is refused by the modern side with the versions it serves). */
export function opensModern(line: string | null): boolean {
  if (line === null) return false;
  try {
    const message = JSON.parse(line) as { params?: { _meta?: Record<string, unknown> } };
    return typeof message?.params?._meta?.[PROTOCOL_VERSION_META_KEY] === 'string';
  } catch {
    return false;
  }
}

/** Waits for the first line (null if the stream ends without one); `rest` replays it and everything after. */
export function peekFirstLine(stream: Readable): Promise<{ first: string | null; rest: Readable }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const rest = new PassThrough();
    const finish = (first: string | null, ended: boolean) => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      rest.write(Buffer.concat(chunks));
      if (ended) rest.end();
      // pipe() resumes the source, which reading by 'readable' had paused.
      else stream.pipe(rest);
      resolve({ first, rest });
    };
    const onReadable = () => {
      for (let chunk = stream.read() as Buffer | string | null; chunk !== null; chunk = stream.read() as Buffer | string | null) {
        chunks.push(Buffer.from(chunk));
        const text = Buffer.concat(chunks).toString('utf8');
        const newline = text.indexOf('\n');
        if (newline >= 0) return finish(text.slice(0, newline), false);
      }
    };
    const onEnd = () => finish(chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : null, true);
    stream.on('readable', onReadable);
    stream.once('end', onEnd);
  });
}
