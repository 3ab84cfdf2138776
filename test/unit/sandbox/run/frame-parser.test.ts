// The agent's stdout split into frames: valid frames, chunking, and everything that is not a frame.
import { describe, expect, it } from 'vitest';
import { FrameParser, interpretFrame, type AgentFrame } from '../../../../electron/sandbox/run/frame-parser.js';

const line = (v: unknown) => JSON.stringify(v);

describe('interpretFrame', () => {
  it('reads a ready frame', () => {
    const ready = line({ type: 'ready', python: '3.14.0' });
    expect(interpretFrame(ready)).toEqual({ type: 'ready', python: '3.14.0', bytes: ready.length });
  });

  it('reads a ready frame without a version as an empty version', () => {
    expect(interpretFrame(line({ type: 'ready' }))).toMatchObject({ type: 'ready', python: '' });
    expect(interpretFrame(line({ type: 'ready', python: 3 }))).toMatchObject({ type: 'ready', python: '' });
  });

  it('reads stdout and stderr frames', () => {
    expect(interpretFrame(line({ type: 'stdout', data: 'hello\n' }))).toEqual({ type: 'output', stream: 'stdout', data: 'hello\n' });
    expect(interpretFrame(line({ type: 'stderr', data: 'oops' }))).toEqual({ type: 'output', stream: 'stderr', data: 'oops' });
    expect(interpretFrame(line({ type: 'stdout', data: '' }))).toEqual({ type: 'output', stream: 'stdout', data: '' });
  });

  it("reads the relay's exit frames and output_cut reports, and refuses forged fields", () => {
    expect(interpretFrame(line({ type: 'exit', code: 139, abrupt: 'SIGSEGV' }))).toEqual({ type: 'exit', code: 139, abrupt: 'SIGSEGV' });
    expect(interpretFrame(line({ type: 'exit', code: 3, abrupt: 'exit' }))).toEqual({ type: 'exit', code: 3, abrupt: 'exit' });
    expect(interpretFrame(line({ type: 'exit', code: 137, stopped: 'stdout' }))).toEqual({ type: 'exit', code: 137, stopped: 'stdout' });
    // A field that is not one of the words the relay uses is dropped: the frame stays a plain exit.
    expect(interpretFrame(line({ type: 'exit', code: 1, abrupt: '\u001b[2Jcrash', stopped: 'stdin' }))).toEqual({ type: 'exit', code: 1 });
    const cut = line({ type: 'output_cut', stream: 'stderr', printed: 5000 });
    expect(interpretFrame(cut)).toEqual({ type: 'output_cut', stream: 'stderr', printed: 5000, bytes: cut.length });
    for (const bad of [{ stream: 'stdin', printed: 1 }, { stream: 'stdout', printed: -1 }, { stream: 'stdout', printed: 1.5 }, { stream: 'stdout' }]) {
      expect(interpretFrame(line({ type: 'output_cut', ...bad }))).toMatchObject({ type: 'invalid' });
    }
  });

  it('reads an rpc_request frame', () => {
    expect(interpretFrame(line({ type: 'rpc_request', id: 7, payload: { type: 'list_servers' } }))).toEqual({
      type: 'rpc_request',
      id: 7,
      payload: { type: 'list_servers' },
      // The frame's length: the host's in-flight budget counts it.
      bytes: line({ type: 'rpc_request', id: 7, payload: { type: 'list_servers' } }).length,
    });
  });

  it('passes display and file frames on whole, even malformed (never as output text)', () => {
    const display = { type: 'display', mime: 'image/png', data: 'AAAA', source: 'figure', width: 1, height: 1 };
    // Each with its length, which the run's budget for its kind counts.
    expect(interpretFrame(line(display))).toEqual({ type: 'display', frame: display, bytes: line(display).length });
    expect(interpretFrame(line({ type: 'display', data: 7 }))).toMatchObject({ type: 'display', frame: { type: 'display', data: 7 } });
    const file = { type: 'file', name: 'out/a.csv', offset: 0, data: 'YQ==', last: true };
    expect(interpretFrame(line(file))).toEqual({ type: 'file', frame: file, bytes: line(file).length });
  });

  it('reads preload and imports frames, keeping only strings', () => {
    expect(interpretFrame(line({ type: 'preload', loaded: ['numpy', 3], failed: [{ module: 'x', error: 'E' }, 'junk', { error: 'no module' }] }))).toMatchObject({
      type: 'preload',
      loaded: ['numpy'],
      failed: [{ module: 'x', error: 'E' }],
    });
    expect(interpretFrame(line({ type: 'imports', modules: ['pandas', null] }))).toMatchObject({ type: 'imports', modules: ['pandas'] });
    expect(interpretFrame(line({ type: 'imports', modules: 'pandas' }))).toMatchObject({ type: 'invalid' });
  });

  it("reads a session call's checkpoint report, keeping only call numbers and the words it knows", () => {
    expect(interpretFrame(line({ type: 'exit', code: 0, session: 'open', checkpoint: { made: 3, dropped: [1, 2], threads: true } }))).toEqual({
      type: 'exit', code: 0, session: 'open', checkpoint: { made: 3, dropped: [1, 2], threads: true },
    });
    const forged = { made: '3', dropped: [0, -1, 1.5, 'x', 2], threads: 'yes', unavailable: 1, extra: 'x' };
    expect(interpretFrame(line({ type: 'exit', code: 0, session: 'open', checkpoint: forged }))).toEqual({
      type: 'exit', code: 0, session: 'open', checkpoint: { made: null, dropped: [2], threads: false },
    });
    expect(interpretFrame(line({ type: 'exit', code: 0, checkpoint: { made: null, dropped: [], threads: false, unavailable: true } }))).toMatchObject({ checkpoint: { unavailable: true } });
    expect(interpretFrame(line({ type: 'exit', code: 0, checkpoint: [1] }))).toEqual({ type: 'exit', code: 0 });
  });

  it('reads exit frames', () => {
    expect(interpretFrame(line({ type: 'exit', code: 0 }))).toEqual({ type: 'exit', code: 0 });
    expect(interpretFrame(line({ type: 'exit', code: 3 }))).toEqual({ type: 'exit', code: 3 });
  });

  it.each([
    ['malformed JSON', '{"type":"stdout","data":'],
    ['plain text', 'hello world'],
    ['a JSON array', '[1,2,3]'],
    ['a JSON number', '42'],
    ['a JSON string', '"stdout"'],
    ['JSON null', 'null'],
    ['JSON true', 'true'],
    ['an unknown type', line({ type: 'launch_missiles', data: 'x' })],
    ['no type', line({ data: 'x' })],
    ['stdout data not a string', line({ type: 'stdout', data: 5 })],
    ['stderr data missing', line({ type: 'stderr' })],
    ['stdout data an object', line({ type: 'stdout', data: { a: 1 } })],
    ['rpc id not an integer', line({ type: 'rpc_request', id: 1.5, payload: {} })],
    ['rpc id a string', line({ type: 'rpc_request', id: '1', payload: {} })],
    ['rpc id unsafe', `{"type":"rpc_request","id":9007199254740993,"payload":{}}`],
    ['rpc payload an array', line({ type: 'rpc_request', id: 1, payload: [1] })],
    ['rpc payload null', line({ type: 'rpc_request', id: 1, payload: null })],
    ['rpc payload a string', line({ type: 'rpc_request', id: 1, payload: 'x' })],
    ['rpc payload missing', line({ type: 'rpc_request', id: 1 })],
    ['exit code a string', line({ type: 'exit', code: '0' })],
    ['exit code fractional', line({ type: 'exit', code: 0.5 })],
    ['exit code missing', line({ type: 'exit' })],
  ])('turns %s into invalid text with the original line and a newline', (_what, text) => {
    expect(interpretFrame(text)).toEqual({ type: 'invalid', text: `${text}\n` });
  });
});

function pushAll(parser: FrameParser, chunks: (Buffer | string)[]): AgentFrame[] {
  return chunks.flatMap((c) => parser.push(c));
}

describe('FrameParser', () => {
  it('parses one frame per line', () => {
    const p = new FrameParser(1024);
    expect(p.push(`${line({ type: 'exit', code: 0 })}\n`)).toEqual([{ type: 'exit', code: 0 }]);
  });

  it('waits for the newline before emitting', () => {
    const p = new FrameParser(1024);
    expect(p.push(line({ type: 'exit', code: 0 }))).toEqual([]);
    expect(p.push('\n')).toEqual([{ type: 'exit', code: 0 }]);
  });

  it('reassembles a frame split across many chunks, one byte at a time', () => {
    const p = new FrameParser(1024);
    const bytes = Buffer.from(`${line({ type: 'stdout', data: 'héllo wörld ✓ 🎉' })}\n`);
    const frames = pushAll(p, [...bytes].map((b) => Buffer.from([b])));
    expect(frames).toEqual([{ type: 'output', stream: 'stdout', data: 'héllo wörld ✓ 🎉' }]);
  });

  it('keeps a multi-byte UTF-8 character split across two Buffers intact', () => {
    const p = new FrameParser(1024);
    const bytes = Buffer.from(`{"type":"stdout","data":"€"}\n`);
    const euro = bytes.indexOf(0xe2); // € is e2 82 ac
    expect(euro).toBeGreaterThan(0);
    const frames = pushAll(p, [bytes.subarray(0, euro + 1), bytes.subarray(euro + 1)]);
    expect(frames).toEqual([{ type: 'output', stream: 'stdout', data: '€' }]);
    expect(frames.some((f) => f.type === 'invalid')).toBe(false);
  });

  it('keeps a 4-byte character split in the middle of its bytes', () => {
    const p = new FrameParser(1024);
    const bytes = Buffer.from(`{"type":"stderr","data":"a🎉b"}\n`);
    const start = bytes.indexOf(0xf0);
    const frames = pushAll(p, [bytes.subarray(0, start + 2), bytes.subarray(start + 2, start + 3), bytes.subarray(start + 3)]);
    expect(frames).toEqual([{ type: 'output', stream: 'stderr', data: 'a🎉b' }]);
  });

  it('emits several frames from one chunk, in order', () => {
    const p = new FrameParser(1024);
    const chunk =
      [line({ type: 'ready', python: '3.12' }), line({ type: 'stdout', data: 'a' }), line({ type: 'stderr', data: 'b' }), line({ type: 'exit', code: 1 })].join('\n') +
      '\n';
    expect(p.push(Buffer.from(chunk))).toEqual([
      { type: 'ready', python: '3.12', bytes: line({ type: 'ready', python: '3.12' }).length },
      { type: 'output', stream: 'stdout', data: 'a' },
      { type: 'output', stream: 'stderr', data: 'b' },
      { type: 'exit', code: 1 },
    ]);
  });

  it('handles a chunk ending in the middle of the next frame', () => {
    const p = new FrameParser(1024);
    const a = line({ type: 'stdout', data: 'one' });
    const b = line({ type: 'stdout', data: 'two' });
    expect(p.push(`${a}\n${b.slice(0, 5)}`)).toEqual([{ type: 'output', stream: 'stdout', data: 'one' }]);
    expect(p.push(`${b.slice(5)}\n`)).toEqual([{ type: 'output', stream: 'stdout', data: 'two' }]);
  });

  it('accepts CRLF line endings', () => {
    const p = new FrameParser(1024);
    expect(p.push(`${line({ type: 'exit', code: 0 })}\r\n${line({ type: 'stdout', data: 'x' })}\r\n`)).toEqual([
      { type: 'exit', code: 0 },
      { type: 'output', stream: 'stdout', data: 'x' },
    ]);
  });

  it('accepts a CR and LF that arrive in separate chunks', () => {
    const p = new FrameParser(1024);
    expect(p.push(`${line({ type: 'exit', code: 2 })}\r`)).toEqual([]);
    expect(p.push('\n')).toEqual([{ type: 'exit', code: 2 }]);
  });

  it('skips blank lines', () => {
    const p = new FrameParser(1024);
    expect(p.push(`\n\n${line({ type: 'exit', code: 0 })}\n\r\n\n`)).toEqual([{ type: 'exit', code: 0 }]);
  });

  it('passes a non-frame line on as invalid text with its newline, between valid frames', () => {
    const p = new FrameParser(1024);
    expect(p.push(`${line({ type: 'stdout', data: 'a' })}\nnot json at all\n${line({ type: 'exit', code: 0 })}\n`)).toEqual([
      { type: 'output', stream: 'stdout', data: 'a' },
      { type: 'invalid', text: 'not json at all\n' },
      { type: 'exit', code: 0 },
    ]);
  });

  it('flushes a line longer than the bound as invalid without waiting for a newline', () => {
    const p = new FrameParser(100);
    const frames = p.push('x'.repeat(150));
    expect(frames).toEqual([{ type: 'invalid', text: 'x'.repeat(150) }]);
    // Nothing is held back: the parser's buffer is empty again.
    expect(p.end()).toEqual([]);
  });

  it('keeps memory bounded over many chunks of an endless line, and loses no text', () => {
    const p = new FrameParser(64);
    const invalid: string[] = [];
    for (let i = 0; i < 1000; i++) {
      for (const f of p.push('y'.repeat(10))) {
        expect(f.type).toBe('invalid');
        if (f.type === 'invalid') {
          expect(f.text.length).toBeLessThanOrEqual(64 + 10);
          invalid.push(f.text);
        }
      }
    }
    for (const f of p.push('\n')) if (f.type === 'invalid') invalid.push(f.text);
    expect(invalid.length).toBeGreaterThan(100);
    expect(invalid.join('')).toBe(`${'y'.repeat(10_000)}\n`);
  });

  it('does not flush a pending line exactly at the bound', () => {
    const p = new FrameParser(10);
    expect(p.push('a'.repeat(10))).toEqual([]);
    expect(p.push('\n')).toEqual([{ type: 'invalid', text: `${'a'.repeat(10)}\n` }]);
  });

  it('parses a valid frame that arrives whole even if it is longer than the bound', () => {
    // The bound is on what is held pending; a complete line is interpreted as usual.
    const p = new FrameParser(16);
    const big = 'z'.repeat(100);
    expect(p.push(`${line({ type: 'stdout', data: big })}\n`)).toEqual([{ type: 'output', stream: 'stdout', data: big }]);
  });

  it('returns a trailing line without newline at end()', () => {
    const p = new FrameParser(1024);
    expect(p.push(`${line({ type: 'stdout', data: 'a' })}\n${line({ type: 'exit', code: 4 })}`)).toEqual([
      { type: 'output', stream: 'stdout', data: 'a' },
    ]);
    expect(p.end()).toEqual([{ type: 'exit', code: 4 }]);
    expect(p.end()).toEqual([]);
  });

  it('returns trailing garbage at end() as invalid text', () => {
    const p = new FrameParser(1024);
    p.push('Segmentation fault');
    expect(p.end()).toEqual([{ type: 'invalid', text: 'Segmentation fault\n' }]);
  });

  it('returns nothing at end() when nothing or only whitespace is pending', () => {
    expect(new FrameParser(1024).end()).toEqual([]);
    const p = new FrameParser(1024);
    p.push(`${line({ type: 'exit', code: 0 })}\n  `);
    expect(p.end()).toEqual([]);
  });

  it('accepts string chunks too', () => {
    const p = new FrameParser(1024);
    expect(pushAll(p, ['{"type":"std', 'out","data":"ü"}', '\n'])).toEqual([{ type: 'output', stream: 'stdout', data: 'ü' }]);
  });
});
