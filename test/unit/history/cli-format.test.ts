// `sandbar history`: flags to a query, a page to a table or JSON.
import { describe, expect, it } from 'vitest';
import { formatDuration, formatHistoryJson, formatHistoryTable, historyQueryFromFlags } from '../../../electron/history/history-cli-format.js';
import type { HistoryItem, HistoryPage } from '../../../shared/history.js';

const item = (over: Partial<HistoryItem>): HistoryItem => ({
  id: '0f8e2c1a-1111-2222-3333-444455556666',
  client: { name: 'claude-code', version: '2.1.0' },
  transport: 'stdio',
  codePreview: 'import json\nprint(json.dumps({"a": 1}))',
  servers: [],
  status: 'success',
  exitReason: 'success',
  exitCode: 0,
  queuedAt: 0,
  startedAt: 3,
  finishedAt: 1243,
  durationMs: 1240,
  error: null,
  toolCallCount: 0,
  ...over,
});

const fixedTime = (ms: number) => `T+${ms}`;

describe('historyQueryFromFlags', () => {
  it('defaults to 20 rows and passes status lists and search through', () => {
    expect(historyQueryFromFlags({})).toEqual({ limit: 20 });
    expect(historyQueryFromFlags({ limit: '5', status: 'error, timeout', search: 'pandas' })).toEqual({ limit: 5, status: ['error', 'timeout'], search: 'pandas' });
    expect(historyQueryFromFlags({ search: '   ' })).toEqual({ limit: 20 });
  });

  it.each([{ limit: '0' }, { limit: 'ten' }, { limit: 501 }, { status: 'failed' }, { status: ',' }])('rejects %j', (flags) => {
    expect(() => historyQueryFromFlags(flags)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('names the valid statuses when one is wrong', () => {
    expect(() => historyQueryFromFlags({ status: 'failed' })).toThrow(/one of queued, running, interrupted, success, error/);
  });
});

describe('formatHistoryTable', () => {
  it('prints aligned columns, newest first as given, with code flattened to one line', () => {
    const page: HistoryPage = {
      items: [
        item({}),
        item({ id: 'abcdef12-0000', client: { name: 'cli', version: null }, status: 'timeout', exitCode: 137, durationMs: 30_000, servers: ['fs', 'git'], queuedAt: 5, codePreview: 'while True:\n    pass' }),
        item({ id: 'deadbeef-0000', status: 'interrupted', exitReason: null, exitCode: null, durationMs: null, queuedAt: 9, codePreview: 'x' }),
      ],
      nextCursor: null,
    };
    expect(formatHistoryTable(page, { formatTime: fixedTime })).toBe(
      [
        'ID        QUEUED  CLIENT             STATUS       EXIT  DURATION  SERVERS  CODE',
        '0f8e2c1a  T+0     claude-code 2.1.0  success      0     1.2 s     -        import json print(json.dumps({"a": 1}))',
        'abcdef12  T+5     cli                timeout      137   30.0 s    fs,git   while True: pass',
        'deadbeef  T+9     claude-code 2.1.0  interrupted  -     -         -        x',
        '',
      ].join('\n'),
    );
  });

  it('shows search snippets under their rows, cuts long code, and says when there is more', () => {
    const page: HistoryPage = {
      items: [item({ codePreview: 'y'.repeat(100), snippet: [{ text: 'the answer is ', hit: false }, { text: 'quetzalcoatl', hit: true }] })],
      nextCursor: 'abc',
    };
    const lines = formatHistoryTable(page, { formatTime: fixedTime, codeWidth: 10 }).split('\n');
    expect(lines[1]).toMatch(/ yyyyyyyyy…$/);
    expect(lines[2]).toBe('    the answer is [quetzalcoatl]');
    expect(lines[3]).toBe('… more: raise --limit to see older runs');
  });

  it('says so when there is nothing', () => {
    expect(formatHistoryTable({ items: [], nextCursor: null })).toBe('No executions recorded.\n');
  });
});

describe('formatHistoryJson and durations', () => {
  it('is the page itself, as one JSON document', () => {
    const page: HistoryPage = { items: [item({})], nextCursor: 'c' };
    expect(JSON.parse(formatHistoryJson(page))).toEqual(page);
  });

  it.each([[null, '-'], [0, '0 ms'], [999, '999 ms'], [1000, '1.0 s'], [61_500, '1 m 2 s']] as const)('formatDuration(%j) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('recorded text never drives the terminal', () => {
  const hostile = item({
    codePreview: 'print("\u001b]0;pwned\u0007\u001b[2J")\u009b31m # de\u200bl\u202eetes',
    client: { name: 'evil\u001b[31m', version: null },
    servers: ['s\u0007'],
    snippet: [{ text: 'x\u001b[1m', hit: false }],
  });

  it('strips C0 and C1 control characters and whole escape sequences from every table cell and snippet', () => {
    const table = formatHistoryTable({ items: [hostile], nextCursor: null }, { formatTime: fixedTime });
    // eslint-disable-next-line no-control-regex
    expect(table).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/);
    expect(table).toContain('print("")');
    expect(table).toContain('evil ');
    expect(table).toContain('deletes');
  });

  it('escapes DEL and C1 in JSON too, so the document is the same data and the terminal sees no CSI', () => {
    const text = formatHistoryJson({ items: [hostile], nextCursor: null });
    // eslint-disable-next-line no-control-regex
    expect(text.slice(0, -1)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/);
    expect((JSON.parse(text) as HistoryPage).items[0]!.codePreview).toBe(hostile.codePreview);
  });

  it('refuses a search with control characters', () => {
    expect(() => historyQueryFromFlags({ search: 'a\u0000b' })).toThrow(/control characters/);
  });
});
