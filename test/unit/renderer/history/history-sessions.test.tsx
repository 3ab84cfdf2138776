// @vitest-environment jsdom
// History and sessions: a session's calls carry "session <id> · call N"; the label (or "s" on the selected
// row, or the detail's "Show its calls") lists that session's calls alone, paging only until its first
// call is loaded; "Show all runs" goes back.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HistoryItem } from '../../../../shared/history.js';
import { HistoryPanel } from '../../../../renderer/features/history/history-panel.js';
import { ROW_HEIGHT } from '../../../../renderer/features/history/history-table.js';
import { useHistoryStore } from '../../../../renderer/stores/history-store.js';
import { connectFake } from './connect-fake.js';
import { FakeHistoryApi, makeItems, settle } from './fake-history-api.js';

vi.mock('../../../../renderer/api/index.js', async () => (await import('./api-holder.js')).apiModule);

const store = () => useHistoryStore.getState();
const SESSION = '3f2a9c0d7be14e21a6c85f09d3b7e412';
const OTHER = 'c07e51aa2d9f4b8e9e3310f6a4c2d8b5';

/** 1,000 runs (pages of 200); the session's three calls are runs 3, 150 and 450 (call 1, the oldest, on page 3). */
function itemsWithSession(): HistoryItem[] {
  const items = makeItems(1000);
  const mark = (k: number, id: string, call: number) => (items[k] = { ...items[k]!, session: { id, call } });
  mark(3, SESSION, 3);
  mark(150, SESSION, 2);
  mark(450, SESSION, 1);
  mark(5, OTHER, 1);
  return items;
}

beforeAll(() => {
  const viewport = (el: HTMLElement, size: number) => (el.classList.contains('hist-body') ? size : 0);
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get(this: HTMLElement) { return viewport(this, 20 * ROW_HEIGHT); } });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get(this: HTMLElement) { return viewport(this, 1000); } });
  HTMLElement.prototype.scrollTo = function (this: HTMLElement, options?: ScrollToOptions | number) {
    this.scrollTop = typeof options === 'number' ? options : (options?.top ?? this.scrollTop);
    queueMicrotask(() => this.dispatchEvent(new Event('scroll')));
  } as HTMLElement['scrollTo'];
});

let fake: FakeHistoryApi;

beforeEach(() => {
  store().reset();
  window.location.hash = '#/history';
});
afterEach(() => {
  cleanup();
  store().reset();
});

async function renderFromApi(items: HistoryItem[]) {
  fake = new FakeHistoryApi(items);
  connectFake(fake);
  render(<HistoryPanel />);
  await act(settle);
}

/** Lets the table page as far as it wants (each page is one more effect and one more answer). */
async function settlePages() {
  for (let i = 0; i < 10; i++) await act(settle);
}

const grid = () => screen.getByRole('grid', { name: 'Execution history' });
const shownIds = () => [...grid().querySelectorAll<HTMLElement>('[role="row"][data-id]')].map((r) => r.dataset.id);

describe('History: a session’s calls', () => {
  it('labels a session call with its session and call number; other rows have no label', async () => {
    await renderFromApi(itemsWithSession());
    const row = grid().querySelector('[data-id="run-3"]')!;
    expect(within(row as HTMLElement).getByRole('button', { name: 'session 3f2a9c0d · call 3' })).toBeTruthy();
    expect(grid().querySelector('[data-id="run-5"]')!.textContent).toContain('session c07e51aa · call 1');
    expect(grid().querySelector('[data-id="run-4"] .hist-session')).toBeNull();
  });

  it('the label lists that session’s calls alone, paging until its first call, and "Show all runs" goes back', async () => {
    await renderFromApi(itemsWithSession());
    expect(fake.listCalls()).toHaveLength(1);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'session 3f2a9c0d · call 3' }));
      await settle();
    });
    await settlePages();
    expect(shownIds()).toEqual(['run-3', 'run-150', 'run-450']);
    // Pages 2 and 3 were read to reach call 1; then it stopped although 2 more pages exist.
    expect(fake.listCalls().map((q) => q.cursor)).toEqual([undefined, '200', '400']);
    expect(store().nextCursor).toBe('600');
    expect(document.querySelector('.hist-session-bar[role="status"]')!.textContent).toContain('3 calls of session 3f2a9c0d, newest first');
    // The label did not open a detail.
    expect(window.location.hash).toBe('#/history');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Show all runs' }));
      await settle();
    });
    expect(shownIds().slice(0, 3)).toEqual(['run-0', 'run-1', 'run-2']);
    expect(screen.queryByText(/of session 3f2a9c0d/)).toBeNull();
  });

  it('"s" on the selected row focuses its session; arrows then move within it', async () => {
    await renderFromApi(itemsWithSession());
    const g = grid();
    g.focus();
    await act(async () => {
      for (let i = 0; i < 6; i++) fireEvent.keyDown(g, { key: 'ArrowDown' });
      await settle();
    });
    expect(store().selectedId).toBe('run-5');
    await act(async () => {
      fireEvent.keyDown(g, { key: 's' });
      await settle();
    });
    await settlePages();
    expect(store().sessionFocus).toBe(OTHER);
    expect(shownIds()).toEqual(['run-5']);
    await act(async () => {
      fireEvent.keyDown(g, { key: 'ArrowDown' });
      await settle();
    });
    expect(store().selectedId).toBe('run-5');
    // A row outside any session: "s" does nothing.
    await act(async () => {
      store().sessionFocused(null);
      store().rowSelected('run-4');
      await settle();
    });
    await act(async () => {
      fireEvent.keyDown(grid(), { key: 's' });
      await settle();
    });
    expect(store().sessionFocus).toBeNull();
  });

  it('the detail names the session call and offers its calls', async () => {
    await renderFromApi(itemsWithSession());
    window.location.hash = '#/history/run-150';
    await act(async () => {
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      await settle();
    });
    const detail = screen.getByRole('complementary', { name: /Run run-150/ });
    expect(detail.textContent).toContain('session 3f2a9c0d · call 2');
    await act(async () => {
      fireEvent.click(within(detail).getByRole('button', { name: 'Show its calls' }));
      await settle();
    });
    await settlePages();
    expect(store().sessionFocus).toBe(SESSION);
    expect(shownIds()).toEqual(['run-3', 'run-150', 'run-450']);
    expect(within(detail).queryByRole('button', { name: 'Show its calls' })).toBeNull();
  });

  it('says when none of the session’s calls are listed, and stops looking at the end of the history', async () => {
    await renderFromApi(makeItems(300));
    await act(async () => {
      store().sessionFocused(SESSION);
      await settle();
    });
    await settlePages();
    expect(fake.listCalls().map((q) => q.cursor)).toEqual([undefined, '200']);
    expect(screen.getByText("None of this session's calls are listed")).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getAllByRole('button', { name: 'Show all runs' }).at(-1)!);
      await settle();
    });
    expect(shownIds()[0]).toBe('run-0');
  });

  it('"Clear filters" also leaves the session', async () => {
    await renderFromApi(itemsWithSession());
    await act(async () => {
      store().filtersChanged({ client: 'cursor' });
      store().sessionFocused(SESSION);
      await settle();
    });
    await act(async () => {
      fireEvent.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
      await settle();
    });
    expect(store().sessionFocus).toBeNull();
  });
});
