// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectFake } from './connect-fake.js';
import { DEFAULT_LIMITS } from '../../../../shared/limits.js';
import { HistoryPanel } from '../../../../renderer/features/history/history-panel.js';
import { useHistoryStore } from '../../../../renderer/stores/history-store.js';
import { detailOf, FakeHistoryApi, makeItems, settle } from './fake-history-api.js';

vi.mock('../../../../renderer/api/index.js', async () => (await import('./api-holder.js')).apiModule);

let fake: FakeHistoryApi;

beforeEach(async () => {
  useHistoryStore.getState().reset();
  const items = makeItems(5);
  fake = new FakeHistoryApi(items);
  const base = detailOf(items[1]!);
  fake.details.set('run-1', {
    ...base,
    status: 'memory',
    exitReason: 'memory',
    exitCode: 137,
    code: 'import numpy as np\nx = np.zeros((10**5, 10**5))  # <b>big</b>',
    limits: { ...DEFAULT_LIMITS, memory: '256m' },
    startedAt: 10_000,
    durationMs: 1000,
    stdout: 'allocating\n',
    stdoutTruncated: true,
    stderr: 'Killed\n',
    toolCalls: [
      { server: 'github', tool: 'search', startedAt: 10_100, durationMs: 200, isError: false, bytesIn: 80, bytesOut: 2048, error: null },
      { server: 'github', tool: 'get_issue', startedAt: 10_500, durationMs: 100, isError: true, bytesIn: 60, bytesOut: 10, error: 'github did not answer' },
    ],
    toolCallCount: 2,
    toolCallsDropped: 5,
    approvals: [
      { id: 'a1', runId: 'run-1', server: 'github', tool: 'close_issue', argsHash: 'ab'.repeat(32), decision: 'allow-once', by: 'tray', at: 10_200 },
      { id: 'a2', runId: 'run-1', server: 'github', tool: 'delete_repo', argsHash: 'cd'.repeat(32), decision: 'timeout', by: 'deadline', at: 10_900 },
    ],
  });
  connectFake(fake);
  window.location.hash = '#/history/run-1';
  render(<HistoryPanel />);
  await act(settle);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  useHistoryStore.getState().reset();
});

const pane = () => screen.getByRole('complementary', { name: /Run run-1/ });

describe('History detail', () => {
  it('says how the run ended, with the limit in force', () => {
    expect(within(pane()).getByText('killed: memory limit 256m')).toBeTruthy();
    expect(within(pane()).getByText('137')).toBeTruthy();
  });

  it('shows stdout and stderr apart, with the truncated flag where it applies', () => {
    const stdout = within(pane()).getByRole('region', { name: 'stdout' });
    const stderr = within(pane()).getByRole('region', { name: 'stderr' });
    expect(stdout.textContent).toContain('allocating');
    expect(within(stdout).queryByText('truncated')).not.toBeNull();
    expect(stderr.textContent).toContain('Killed');
    expect(within(stderr).queryByText('truncated')).toBeNull();
    expect(stderr.className).toContain('is-stderr');
    expect(stdout.className).not.toContain('is-stderr');
  });

  it('highlights the code without letting markup in it through', () => {
    const code = pane().querySelector('.hist-code-text code')!;
    expect(code.querySelector('.hljs-keyword')?.textContent).toBe('import');
    expect(code.querySelector('b')).toBeNull();
    expect(code.textContent).toContain('<b>big</b>');
  });

  it('draws one bar per tool call, positioned in the run, the failed one in error', () => {
    const items = pane().querySelectorAll('.hist-tl-list > li');
    expect(items).toHaveLength(2);
    const bars = [...items].map((li) => li.querySelector<HTMLElement>('.hist-tl-bar')!);
    expect(bars[0]!.style.left).toBe('10%');
    expect(bars[0]!.style.width).toBe('20%');
    expect(bars[1]!.style.left).toBe('50%');
    expect(items[1]!.className).toContain('is-error');
    expect(items[1]!.textContent).toContain('github did not answer');
    expect(items[0]!.textContent).toContain('github.search');
  });

  it('says how many tool calls past the per-run cap were not recorded', () => {
    expect(within(pane()).getByText('5 more tool calls not recorded: history keeps the first 2 of a run.')).toBeTruthy();
  });

  it('lists every approval decision: the call, what was decided, by whom', () => {
    const list = within(pane()).getByRole('list', { name: 'Approval decisions' });
    const items = within(list).getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(/^allowed once github\/close_issue by tray, .* · arguments abababababab$/);
    expect(items[1]).toMatch(/^no answer: denied github\/delete_repo by deadline, /);
    expect(within(pane()).getByRole('heading', { name: 'Approvals (2)' })).toBeTruthy();
  });

  it('Re-run says which run it started', async () => {
    fake.rerunId = 'run-fresh';
    await act(async () => {
      fireEvent.click(within(pane()).getByRole('button', { name: 'Re-run' }));
      await settle();
    });
    const note = within(pane()).getByText(/Started as/);
    expect(note.textContent).toContain('run-fresh');
    expect(within(note).getByRole('link', { name: 'run-fresh' }).getAttribute('href')).toBe('#/history/run-fresh');
  });

  it('Export as JSON downloads the whole record as sandbar-run-<id>.json', async () => {
    let blob: Blob | null = null;
    URL.createObjectURL = vi.fn((b: Blob) => {
      blob = b;
      return 'blob:fake';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    fireEvent.click(within(pane()).getByRole('button', { name: 'Export as JSON' }));
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('sandbar-run-run-1.json');
    expect(clicked[0]!.href).toBe('blob:fake');
    const parsed = JSON.parse(await blob!.text());
    expect(parsed).toMatchObject({ id: 'run-1', status: 'memory', stderr: 'Killed\n' });
    expect(parsed.toolCalls).toHaveLength(2);
  });
});
