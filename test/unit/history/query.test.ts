// The reader's small languages: cursors, search text to FTS5, snippet markers to parts.
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, HIT_CLOSE, HIT_OPEN, parseSnippet, snippetText, toFtsQuery } from '../../../electron/history/history-query.js';

describe('cursor', () => {
  it('round-trips and is opaque (URL-safe)', () => {
    const c = encodeCursor({ queuedAt: 1_795_000_000_123, seq: 42 });
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c)).toEqual({ queuedAt: 1_795_000_000_123, seq: 42 });
  });

  it.each(['', 'abc', Buffer.from('[1]').toString('base64url'), Buffer.from('[1.5,2]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')])(
    'rejects %j as an invalid request',
    (bad) => {
      expect(() => decodeCursor(bad)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    },
  );
});

describe('toFtsQuery', () => {
  it.each([
    ['pandas', '"pandas"*'],
    ['matplot', '"matplot"*'],
    ['  read_csv   frame ', '"read_csv" "frame"*'],
    ['quetz*', '"quetz"*'],
    ['quetz***', '"quetz"*'],
    ['NEAR( OR -x', '"NEAR("* "OR" "-x"'],
    ['col:value', '"col:value"*'],
    ['é', '"é"'],
    // Up to three letters match whole words (a short prefix matches much of the index); `*` still asks.
    ['np pd sql', '"np" "pd" "sql"'],
    ['pand', '"pand"*'],
    ['k*', '"k"*'],
    ['pd.read', '"pd.read"*'],
    ['pd.re', '"pd.re"'],
    ['数据库', '"数据库"'],
    ['数据库表', '"数据库表"*'],
    // Quotes: an exact phrase; an open one runs to the end with its last word a prefix.
    ['"say hi"', '"say hi"'],
    ['"matplotlib" plot', '"matplotlib" "plot"*'],
    ['say "hi', '"say" "hi"'],
    ['said "hello', '"said"* "hello"*'],
    ['"pandas read', '"pandas read"*'],
    ['"pandas rea', '"pandas rea"'],
    // A quote inside a term is text (how code is written).
    ['print("hello', '"print(""hello"*'],
    ['a"b"cd', '"a""b""cd"'],
    ['x"print', '"x""print"*'],
  ])('%j → %s', (input, expected) => {
    expect(toFtsQuery(input)).toBe(expected);
  });

  it('drops terms with nothing to match, returning null when none is left', () => {
    expect(toFtsQuery('* ( " ')).toBeNull();
    expect(toFtsQuery('')).toBeNull();
    expect(toFtsQuery('""')).toBeNull();
    expect(toFtsQuery('"   " ***')).toBeNull();
    expect(toFtsQuery('( x')).toBe('"x"');
  });
});

describe('snippets', () => {
  it('splits marked text into plain and hit parts', () => {
    expect(parseSnippet(`…the ${HIT_OPEN}answer${HIT_CLOSE} is ${HIT_OPEN}42${HIT_CLOSE}`)).toEqual([
      { text: '…the ', hit: false },
      { text: 'answer', hit: true },
      { text: ' is ', hit: false },
      { text: '42', hit: true },
    ]);
    expect(parseSnippet('no hits')).toEqual([{ text: 'no hits', hit: false }]);
    expect(parseSnippet('')).toEqual([]);
  });

  it('renders as text with brackets or any markers', () => {
    const parts = parseSnippet(`a ${HIT_OPEN}b${HIT_CLOSE} c`);
    expect(snippetText(parts)).toBe('a [b] c');
    expect(snippetText(parts, '\u001b[1m', '\u001b[22m')).toBe('a \u001b[1mb\u001b[22m c');
  });
});
