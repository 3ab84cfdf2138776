// The stdio endpoint's line filter (mcp/stdio-endpoint.ts): blank lines dropped, everything else passed on byte for byte.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { dropBlankLines } from '../../../electron/mcp/stdio-endpoint.js';

async function through(chunks: (string | Buffer)[]): Promise<string> {
  let out = '';
  const stream = Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).pipe(dropBlankLines());
  for await (const chunk of stream) out += chunk.toString();
  return out;
}

describe('dropBlankLines', () => {
  it('drops empty and whitespace-only lines, keeps the rest intact', async () => {
    expect(await through(['\n\n{"a":1}\n', '   \n\r\n{"b":', '2}\n', '\t\n'])).toBe('{"a":1}\n{"b":2}\n');
  });

  it('keeps a multi-byte character split across chunks', async () => {
    const bytes = Buffer.from('{"t":"é€"}\n');
    expect(await through([bytes.subarray(0, 8), bytes.subarray(8)])).toBe('{"t":"é€"}\n');
  });

  it('passes a final line without a newline', async () => {
    expect(await through(['{"a":1}\n{"b":2}'])).toBe('{"a":1}\n{"b":2}');
  });
});
