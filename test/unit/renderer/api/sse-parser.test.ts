// The panel's event-stream reader (renderer/api/sse-parser.ts, over eventsource-parser): frames whatever the chunking.
import { describe, expect, it } from 'vitest';
import { SseParser, type SseFrame } from '../../../../renderer/api/sse-parser.js';

function feed(chunks: string[]): SseFrame[] {
  const parser = new SseParser();
  return chunks.flatMap((c) => parser.push(c));
}

/** Every way of cutting `text` into two pieces gives the same frames as feeding it whole. */
function allSplits(text: string): SseFrame[][] {
  const out: SseFrame[][] = [];
  for (let i = 0; i <= text.length; i++) out.push(feed([text.slice(0, i), text.slice(i)]));
  return out;
}

const STREAM =
  'event: connected\ndata: {"connectionId":"c1"}\n\n' +
  ': keep-alive\n\n' +
  'event: live.changed\nid: 7\ndata: {"paused":false}\n\n' +
  'event: output.chunk\r\nid: 8\r\ndata: {"id":"a",\r\ndata: "stdout":"x"}\r\n\r\n';

const EXPECTED: SseFrame[] = [
  { event: 'connected', data: '{"connectionId":"c1"}', id: null },
  { event: 'live.changed', data: '{"paused":false}', id: '7' },
  { event: 'output.chunk', data: '{"id":"a",\n"stdout":"x"}', id: '8' },
];

describe('SseParser', () => {
  it('reads named frames with ids, skipping comments', () => {
    expect(feed([STREAM])).toEqual(EXPECTED);
  });

  it('gives the same frames wherever a chunk boundary falls (including between \\r and \\n)', () => {
    for (const frames of allSplits(STREAM)) expect(frames).toEqual(EXPECTED);
  });

  it('gives the same frames fed one character at a time', () => {
    expect(feed([...STREAM])).toEqual(EXPECTED);
  });

  it('joins multi-line data with newlines and keeps blank data lines', () => {
    expect(feed(['data: one\ndata:\ndata: three\n\n'])).toEqual([{ event: 'message', data: 'one\n\nthree', id: null }]);
  });

  it('strips exactly one space after the colon', () => {
    expect(feed(['data:  two spaces\n\n'])[0]!.data).toBe(' two spaces');
    expect(feed(['data:none\n\n'])[0]!.data).toBe('none');
  });

  it('holds an incomplete frame until its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('event: a\ndata: 1\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'a', data: '1', id: null }]);
  });

  it('dispatches nothing for a frame without data, and resets the event name after each frame', () => {
    expect(feed(['event: lonely\n\ndata: x\n\n'])).toEqual([{ event: 'message', data: 'x', id: null }]);
  });

  it('handles lone \\r line endings and a leading byte-order mark', () => {
    // A trailing \r may be half of \r\n, so the frame completes once the next line shows it was not.
    const parser = new SseParser();
    expect(parser.push('\uFEFFevent: e\rdata: d\r\r')).toEqual([]);
    expect(parser.push(':\n')).toEqual([{ event: 'e', data: 'd', id: null }]);
  });

  it('ignores unknown fields and retry', () => {
    expect(feed(['retry: 1000\nfoo: bar\ndata: ok\n\n'])).toEqual([{ event: 'message', data: 'ok', id: null }]);
  });
});
