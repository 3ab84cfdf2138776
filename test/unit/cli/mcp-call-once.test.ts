// The answer of a Streamable HTTP request as JSON or as an SSE stream (progress notifications first).
import { describe, expect, it } from 'vitest';
import { messagesOf } from '../../../electron/cli/mcp-call-once.js';

describe('messagesOf', () => {
  it('reads a JSON answer', () => {
    expect(messagesOf('application/json', '{"jsonrpc":"2.0","id":1,"result":{"a":1}}')).toEqual([{ jsonrpc: '2.0', id: 1, result: { a: 1 } }]);
  });

  it('reads every event of a stream, data split over lines included', () => {
    const body = [
      'event: message\nid: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":0}}',
      'event: message\ndata: {"jsonrpc":"2.0",\ndata: "id":2,"result":{"content":[]}}',
      '',
    ].join('\n\n');
    const messages = messagesOf('text/event-stream', body);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [] } });
  });
});
