// The first message of a stdio connection picks the revision, and whoever serves it still reads the
// stream from its first byte.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { opensModern, peekFirstLine } from '../../../electron/mcp/stdio-era.js';

async function drain(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

describe('opensModern', () => {
  it('is true for a message that claims a revision in its _meta envelope', () => {
    const discover = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } };
    expect(opensModern(JSON.stringify(discover))).toBe(true);
  });

  it('is false for initialize, a claim-less message, junk or nothing', () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
    expect(opensModern(JSON.stringify(initialize))).toBe(false);
    expect(opensModern(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { progressToken: 1 } } }))).toBe(false);
    expect(opensModern('{not json')).toBe(false);
    expect(opensModern('null')).toBe(false);
    expect(opensModern(null)).toBe(false);
  });
});

describe('peekFirstLine', () => {
  it('returns the first line and replays everything, split across chunks', async () => {
    const source = new PassThrough();
    const peeked = peekFirstLine(source);
    source.write('{"a":');
    source.write('1}\n{"b":2}');
    const { first, rest } = await peeked;
    expect(first).toBe('{"a":1}');
    source.end('\n{"c":3}\n');
    expect(await drain(rest)).toBe('{"a":1}\n{"b":2}\n{"c":3}\n');
  });

  it('keeps a multi-byte character split between chunks', async () => {
    const bytes = Buffer.from('{"t":"é€"}\n');
    const { first, rest } = await peekFirstLine(Readable.from([bytes.subarray(0, 8), bytes.subarray(8)]));
    expect(first).toBe('{"t":"é€"}');
    expect(await drain(rest)).toBe('{"t":"é€"}\n');
  });

  it('gives the last line of a stream that ends without a newline, and null for an empty one', async () => {
    const last = await peekFirstLine(Readable.from([Buffer.from('{"a":1}')]));
    expect(last.first).toBe('{"a":1}');
    expect(await drain(last.rest)).toBe('{"a":1}');
    const empty = await peekFirstLine(Readable.from([]));
    expect(empty.first).toBeNull();
    expect(await drain(empty.rest)).toBe('');
  });
});
