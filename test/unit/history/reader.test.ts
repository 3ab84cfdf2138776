// Listing, filters, full-text search, detail and counts.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../../electron/history/history-store.js';
import type { HistoryQuery } from '../../../shared/history.js';
import { snippetText } from '../../../electron/history/history-query.js';
import { openStore, recordRun, tempDir } from './helpers.js';

let dir: ReturnType<typeof tempDir>;
let store: HistoryStore;
const T0 = Date.UTC(2026, 0, 1);
const ids: string[] = [];
const queuedAtOf = (i: number) => T0 + (i === 11 ? 9_500 : i === 21 ? 20_000 : i * 1000);
/** Newest first: by queue time, then by recording order. */
const newestFirst = (list: string[]) =>
  list.map((id) => ({ id, i: ids.indexOf(id) })).sort((a, b) => queuedAtOf(b.i) - queuedAtOf(a.i) || b.i - a.i).map((x) => x.id);

beforeAll(async () => {
  dir = tempDir();
  store = await openStore(path.join(dir.dir, 'history.db'), { now: () => T0 + 10_000_000 });
  // 30 runs recorded in index order, one second apart, except: run 11 was queued before run 10 (recorded
  // out of order) and run 21 shares run 20's queue time (the cursor must not skip or repeat either).
  for (let i = 0; i < 30; i++) {
    ids.push(
      recordRun(store, {
        queuedAt: queuedAtOf(i),
        code: i === 7 ? 'import pandas as pd\nframe = pd.read_csv("zanzibar.csv")' : `print(${i})`,
        stdout: i === 19 ? 'the answer is quetzalcoatl\n' : `${i}\n`,
        exitReason: i % 3 === 0 ? 'error' : 'success',
        servers: i % 5 === 0 ? ['fs'] : i % 5 === 1 ? ['fs2', 'git'] : [],
        client: i % 2 === 0 ? { name: 'claude-code', version: '2.0' } : { name: 'cli', transport: 'cli' },
      }),
    );
  }
});
afterAll(() => {
  store.dispose();
  dir.cleanup();
});

function everything(query: HistoryQuery): string[] {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = store.list({ ...query, ...(cursor ? { cursor } : {}) });
    seen.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return seen;
}

describe('listing', () => {
  it('is newest first, 50 by default, with list fields filled', () => {
    const page = store.list();
    expect(page.items).toHaveLength(30);
    expect(page.nextCursor).toBeNull();
    expect(page.items[0]).toMatchObject({ id: ids[29], codePreview: 'print(29)', client: { name: 'cli', version: null }, status: 'success', toolCallCount: 0 });
    expect(page.items[0]!.snippet).toBeUndefined();
  });

  it('pages by keyset: every run exactly once, in order, ties on the queue time included', () => {
    const order = newestFirst(ids);
    expect(order.slice(17, 22)).toEqual([ids[12], ids[10], ids[11], ids[9], ids[8]]);
    expect(order.slice(7, 11)).toEqual([ids[22], ids[21], ids[20], ids[19]]);
    expect(everything({ limit: 4 })).toEqual(order);
    expect(everything({ limit: 1 })).toEqual(order);
    expect(store.list({ limit: 4 }).nextCursor).toEqual(expect.any(String));
  });

  it('filters by status (one or several), client, exact server name, and time range', () => {
    const errors = newestFirst(ids.filter((_, i) => i % 3 === 0));
    expect(everything({ status: 'error', limit: 3 })).toEqual(errors);
    expect(everything({ status: ['error', 'success'] })).toHaveLength(30);
    expect(everything({ client: 'cli' })).toEqual(newestFirst(ids.filter((_, i) => i % 2 === 1)));
    // 'fs' must not match 'fs2'.
    expect(everything({ server: 'fs' })).toEqual(newestFirst(ids.filter((_, i) => i % 5 === 0)));
    expect(everything({ server: 'git', limit: 2 })).toEqual(newestFirst(ids.filter((_, i) => i % 5 === 1)));
    expect(everything({ server: 'nope' })).toEqual([]);
    expect(everything({ from: T0 + 20_000, to: T0 + 25_000 })).toEqual(newestFirst(ids.slice(20, 25)));
    expect(everything({ status: 'error', client: 'claude-code', server: 'fs' })).toEqual([ids[0]]);
  });

  it('rejects a cursor it did not make', () => {
    expect(() => store.list({ cursor: 'garbage' })).toThrow(/Invalid history cursor/);
  });
});

describe('full-text search', () => {
  it('finds a word that occurs only in one run’s stdout, with a highlighted snippet', () => {
    const page = store.list({ search: 'quetzalcoatl' });
    expect(page.items.map((i) => i.id)).toEqual([ids[19]]);
    const snippet = page.items[0]!.snippet!;
    expect(snippet.filter((p) => p.hit).map((p) => p.text)).toEqual(['quetzalcoatl']);
    expect(snippetText(snippet)).toBe('the answer is [quetzalcoatl]\n');
  });

  it('finds a word that occurs only in another run’s code', () => {
    const page = store.list({ search: 'zanzibar' });
    expect(page.items.map((i) => i.id)).toEqual([ids[7]]);
    expect(snippetText(page.items[0]!.snippet!)).toContain('[zanzibar]');
  });

  it('matches every term, phrases across punctuation, words by their beginning, and never fails on FTS syntax', () => {
    expect(store.list({ search: 'pandas read_csv' }).items.map((i) => i.id)).toEqual([ids[7]]);
    expect(store.list({ search: 'pandas quetzalcoatl' }).items).toEqual([]);
    expect(store.list({ search: 'pd.read_csv' }).items).toHaveLength(1);
    expect(store.list({ search: 'quetz*' }).items.map((i) => i.id)).toEqual([ids[19]]);
    expect(store.list({ search: 'quetz' }).items.map((i) => i.id)).toEqual([ids[19]]);
    expect(store.list({ search: 'pd.read' }).items.map((i) => i.id)).toEqual([ids[7]]);
    expect(store.list({ search: 'zanz pand' }).items.map((i) => i.id)).toEqual([ids[7]]);
    // Up to three letters are whole words: `pd` is one here, `pan` is not; `*` asks for the prefix anyway.
    expect(store.list({ search: 'pd' }).items.map((i) => i.id)).toEqual([ids[7]]);
    expect(store.list({ search: 'pan' }).items).toEqual([]);
    expect(store.list({ search: 'pan*' }).items.map((i) => i.id)).toEqual([ids[7]]);
    expect(store.list({ search: 'pand' }).items.map((i) => i.id)).toEqual([ids[7]]);
    for (const nasty of ['"', 'a OR', 'NEAR(', '(((', '*', '-x', 'col:val', "'; DROP TABLE executions; --", '"unbalanced', 'x"y', '""""', '^', 'a AND NOT b', '{code}: x']) {
      expect(() => store.list({ search: nasty })).not.toThrow();
    }
    // Nothing searchable left: the plain listing.
    expect(store.list({ search: ' ** ' }).items).toHaveLength(30);
  });

  it('answers every string made of FTS syntax, quotes and words (a seeded fuzz) with a page, never an error', () => {
    const alphabet = ['"', '""', '*', '(', ')', '-', '+', ':', '^', '{', '}', ',', '.', ' ', '  ', '\t', 'NEAR', 'OR', 'AND', 'NOT', 'quetz', 'pand', 'é', '中文', '0', "'", '\\', '_'];
    let seed = 25;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 500; n++) {
      const search = Array.from({ length: 1 + Math.floor(next() * 10) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      expect(() => store.list({ search }), search).not.toThrow();
    }
  });

  it('highlights the whole word a prefix found', () => {
    const snippet = store.list({ search: 'quetz' }).items[0]!.snippet!;
    expect(snippet.filter((p) => p.hit).map((p) => p.text)).toEqual(['quetzalcoatl']);
  });

  it('takes quoted text as an exact phrase: no prefixes inside quotes', () => {
    expect(store.list({ search: '"quetzalcoatl"' }).items.map((i) => i.id)).toEqual([ids[19]]);
    expect(store.list({ search: '"quetz"' }).items).toEqual([]);
    expect(store.list({ search: '"answer is quetzalcoatl"' }).items.map((i) => i.id)).toEqual([ids[19]]);
    expect(store.list({ search: '"is answer"' }).items).toEqual([]);
    // Still typing the phrase: its last word is a prefix until the quote is closed.
    expect(store.list({ search: '"answer is quetz' }).items.map((i) => i.id)).toEqual([ids[19]]);
  });

  it('combines with filters and pages newest recorded first (run 11, recorded after run 10, comes before it)', () => {
    const recorded = (list: string[]) => [...list].reverse();
    expect(everything({ search: 'print', limit: 7 })).toEqual(recorded(ids.filter((_, i) => i !== 7)));
    expect(everything({ search: 'print', status: 'error', server: 'fs', limit: 1 })).toEqual(recorded(ids.filter((_, i) => i % 15 === 0)));
  });
});

describe('detail and counts', () => {
  it('returns one run by id, or null', () => {
    expect(store.get(ids[19]!)).toMatchObject({ id: ids[19], stdout: 'the answer is quetzalcoatl\n', code: 'print(19)' });
    expect(store.get('no-such-id')).toBeNull();
  });

  it('counts by status with zeros filled, optionally since a time', () => {
    const counts = store.countByStatus();
    expect(counts).toMatchObject({ error: 10, success: 20, queued: 0, running: 0, interrupted: 0, timeout: 0, protocol_abuse: 0 });
    expect(Object.keys(counts)).toHaveLength(11);
    expect(store.countByStatus(T0 + 27_000)).toMatchObject({ error: 1, success: 2 });
  });
});
