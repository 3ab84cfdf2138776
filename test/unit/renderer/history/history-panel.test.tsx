// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectFake } from './connect-fake.js';
import { HistoryPanel } from '../../../../renderer/features/history/history-panel.js';
import { ROW_HEIGHT } from '../../../../renderer/features/history/history-table.js';
import { useHistoryStore } from '../../../../renderer/stores/history-store.js';
import { FakeHistoryApi, finishedEvent, makeItems, settle } from './fake-history-api.js';

vi.mock('../../../../renderer/api/index.js', async () => (await import('./api-holder.js')).apiModule);

const store = () => useHistoryStore.getState();
const ALL = makeItems(100_000);

/** The list's viewport in these tests: 20 rows tall (jsdom lays nothing out, so this is stubbed). */
const VIEWPORT = 20 * ROW_HEIGHT;

beforeAll(() => {
  const viewport = (el: HTMLElement, size: number) => (el.classList.contains('hist-body') ? size : 0);
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get(this: HTMLElement) { return viewport(this, VIEWPORT); } });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get(this: HTMLElement) { return viewport(this, 1000); } });
  // The list scrolls as far as its spacer is tall.
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return viewport(this, parseFloat((this.firstElementChild as HTMLElement | null)?.style.height ?? '0') || 0);
    },
  });
  // Scrolling an element is setting scrollTop and firing the event a browser would.
  HTMLElement.prototype.scrollTo = function (this: HTMLElement, options?: ScrollToOptions | number) {
    const top = typeof options === 'number' ? options : (options?.top ?? this.scrollTop);
    this.scrollTop = top;
    // Browsers fire scroll events later, never inside the call (nor inside React's commit).
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

/** Renders the panel with `rows` already loaded (as if the user had scrolled through every page). */
async function renderLoaded(rows = ALL) {
  fake = new FakeHistoryApi(rows);
  connectFake(fake);
  useHistoryStore.setState({ rows, phase: 'ready', nextCursor: null, facets: fake.facets });
  const view = render(<HistoryPanel />);
  await act(settle);
  return view;
}

async function renderFromApi(items: ReturnType<typeof makeItems>) {
  fake = new FakeHistoryApi(items);
  connectFake(fake);
  const view = render(<HistoryPanel />);
  await act(settle);
  return view;
}

const dataRows = (grid: HTMLElement) => grid.querySelectorAll('[role="row"][data-id]');
const selectedIds = (grid: HTMLElement) => [...grid.querySelectorAll('[role="row"][aria-selected="true"]')].map((r) => (r as HTMLElement).dataset.id);

/** Scrolling to a row settles over a few animation frames. */
const frames = (n = 4) => new Promise((r) => setTimeout(r, n * 17));

async function key(target: Element, k: string) {
  await act(async () => {
    fireEvent.keyDown(target, { key: k });
    await settle();
    await frames();
  });
}

describe('History table with 100,000 rows', () => {
  it('puts only a screenful of rows in the DOM, with grid semantics', async () => {
    await renderLoaded();
    const grid = screen.getByRole('grid', { name: 'Execution history' });
    const rows = dataRows(grid);
    // 20 visible rows plus a few of overscan: nowhere near 100,000.
    expect(rows.length).toBeGreaterThanOrEqual(20);
    expect(rows.length).toBeLessThan(40);
    expect(grid.getAttribute('aria-rowcount')).toBe('100001');
    expect(rows[0]!.getAttribute('aria-rowindex')).toBe('2');
    expect(within(grid).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Time', 'Client', 'Status', 'Duration', 'Servers', 'Code']);
    // The status is words, not only a colour.
    expect(rows[0]!.textContent).toContain('success');
  });

  it('arrow keys move the selection; End reaches the last row without rendering the rest', async () => {
    await renderLoaded();
    const grid = screen.getByRole('grid');
    grid.focus();
    await key(grid, 'ArrowDown');
    expect(selectedIds(grid)).toEqual(['run-0']);
    await key(grid, 'ArrowDown');
    await key(grid, 'ArrowDown');
    await key(grid, 'ArrowUp');
    expect(selectedIds(grid)).toEqual(['run-1']);
    expect(grid.getAttribute('aria-activedescendant')).toBe(grid.querySelector('[data-id="run-1"]')!.id);

    await key(grid, 'End');
    expect(store().selectedId).toBe('run-99999');
    const last = grid.querySelector('[data-id="run-99999"]');
    expect(last).not.toBeNull();
    expect(last!.getAttribute('aria-rowindex')).toBe('100001');
    expect(last!.getAttribute('aria-selected')).toBe('true');
    expect(dataRows(grid).length).toBeLessThan(40);
    expect(grid.querySelector('[data-id="run-0"]')).toBeNull();
  });

  it('Enter opens the selected run’s detail and Escape closes it', async () => {
    await renderLoaded();
    const grid = screen.getByRole('grid');
    grid.focus();
    await key(grid, 'ArrowDown');
    await key(grid, 'ArrowDown');
    await key(grid, 'Enter');
    expect(window.location.hash).toBe('#/history/run-1');
    await act(async () => {
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      await settle();
    });
    const detail = screen.getByRole('complementary', { name: /Run run-1/ });
    expect(within(detail).getByText('success')).toBeTruthy();
    expect(within(detail).getByLabelText('stdout').textContent).toContain('out');
    await key(document.body, 'Escape');
    await act(async () => {
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      await settle();
    });
    expect(window.location.hash).toBe('#/history');
    expect(screen.queryByRole('complementary')).toBeNull();
  });

  it('"/" focuses the search box, but not while typing elsewhere', async () => {
    await renderLoaded(makeItems(50));
    const search = screen.getByRole('searchbox', { name: 'Search code and output' });
    await key(document.body, '/');
    expect(document.activeElement).toBe(search);
    const select = screen.getByLabelText('Client');
    select.focus();
    await key(select, '/');
    expect(document.activeElement).toBe(select);
  });
});

describe('History loading, live rows and empty states', () => {
  it('loads the next page when the end of the loaded rows scrolls near', async () => {
    await renderFromApi(makeItems(1000));
    const grid = screen.getByRole('grid');
    expect(dataRows(grid).length).toBeGreaterThan(0);
    expect(fake.listCalls()).toHaveLength(1);
    const body = grid.querySelector('.hist-body') as HTMLElement;
    await act(async () => {
      body.scrollTo({ top: 150 * ROW_HEIGHT });
      await settle();
    });
    expect(fake.listCalls()).toHaveLength(2);
    expect(fake.listCalls()[1]!.cursor).toBe('200');
    expect(store().rows).toHaveLength(400);
  });

  it('shows a pill for new runs while scrolled down, and the new row after it is pressed', async () => {
    await renderFromApi(makeItems(1000));
    const body = screen.getByRole('grid').querySelector('.hist-body') as HTMLElement;
    await act(async () => {
      body.scrollTo({ top: 40 * ROW_HEIGHT });
      await settle();
    });
    await act(async () => fake.emit('execution.finished', finishedEvent('live-1')));
    const pill = screen.getByRole('button', { name: /1 new run/ });
    expect(store().rows[0]!.id).toBe('run-0');
    await act(async () => {
      fireEvent.click(pill);
      await settle();
    });
    expect(store().rows[0]!.id).toBe('live-1');
    expect(screen.queryByRole('button', { name: /new run/ })).toBeNull();
    expect(screen.getByRole('grid').querySelector('[data-id="live-1"]')).not.toBeNull();
  });

  it('highlights search hits in the code column', async () => {
    await renderFromApi(makeItems(300));
    await act(async () => {
      store().searchTyped('value_12');
      store().searchSubmitted();
      await settle();
    });
    const marks = screen.getByRole('grid').querySelectorAll('.hist-c-code mark');
    expect(marks.length).toBeGreaterThan(0);
    expect(marks[0]!.textContent).toBe('value_12');
  });

  it('says when there are no runs at all', async () => {
    await renderFromApi([]);
    expect(screen.getByText('No runs yet')).toBeTruthy();
    expect(screen.queryByRole('grid')).toBeNull();
  });

  it('says when nothing matches, and "Clear filters" brings the runs back', async () => {
    await renderFromApi(makeItems(20));
    await act(async () => {
      store().filtersChanged({ client: 'nobody' });
      await settle();
    });
    expect(screen.getByText('No runs match these filters')).toBeTruthy();
    const clear = screen.getAllByRole('button', { name: 'Clear filters' });
    await act(async () => {
      fireEvent.click(clear.at(-1)!);
      await settle();
    });
    expect(dataRows(screen.getByRole('grid'))).not.toHaveLength(0);
  });

  it('shows the error message with a retry', async () => {
    fake = new FakeHistoryApi(makeItems(5));
    fake.listError = 'history database is unavailable';
    connectFake(fake);
    render(<HistoryPanel />);
    await act(settle);
    expect(screen.getByRole('alert').textContent).toContain('history database is unavailable');
    fake.listError = null;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
      await settle();
    });
    expect(dataRows(screen.getByRole('grid'))).toHaveLength(5);
  });

  it('status filter checkboxes filter the query', async () => {
    await renderFromApi(makeItems(50));
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'timed out' }));
      await settle();
    });
    expect(fake.listCalls().at(-1)!.status).toEqual(['timeout']);
    const statuses = [...screen.getByRole('grid').querySelectorAll('[role="row"][data-id]')].map((r) => r.children[2]!.textContent);
    expect(new Set(statuses)).toEqual(new Set(['timed out']));
  });
});
