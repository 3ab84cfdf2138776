// Newline-delimited JSON-RPC from a server's stdout, split in linear time. The SDK's ReadBuffer
// concatenates its whole buffer on every chunk, so a 4 MiB answer arriving in 64 KiB pieces made about
// 128 MiB of short-lived copies: host memory grew with every large tool result.
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export type LineResult = { message: JSONRPCMessage } | { error: Error };

export class JsonLineReader {
  private parts: Buffer[] = [];

  /** Every complete line in `chunk` (with what came before it), parsed; a bad line is an error entry. */
  push(chunk: Buffer): LineResult[] {
    const out: LineResult[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      const line = this.parts.length === 0 ? piece : Buffer.concat([...this.parts, piece]);
      this.parts = [];
      start = nl + 1;
      const text = line.toString('utf8').replace(/\r$/, '');
      if (text.trim() === '') continue;
      try {
        out.push({ message: deserializeMessage(text) });
      } catch (err) {
        out.push({ error: err instanceof Error ? err : new Error(String(err)) });
      }
    }
    if (start < chunk.length) this.parts.push(chunk.subarray(start));
    return out;
  }
}
