// @vitest-environment jsdom
// History's detail and a run's connections through the egress proxy: listed with the run's other facts when
// it made any (secret by name, refusals with their reason, the unrecorded count), absent when it made none.
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HistoryPanel } from '../../../../renderer/features/history/history-panel.js';
import { useHistoryStore } from '../../../../renderer/stores/history-store.js';
import { connectFake } from './connect-fake.js';
import { detailOf, FakeHistoryApi, makeItems, settle } from './fake-history-api.js';

vi.mock('../../../../renderer/api/index.js', async () => (await import('./api-holder.js')).apiModule);

let fake: FakeHistoryApi;

beforeEach(() => {
  useHistoryStore.getState().reset();
  const items = makeItems(3);
  fake = new FakeHistoryApi(items);
  fake.details.set('run-1', {
    ...detailOf(items[1]!),
    egress: [
      { host: 'api.example.com', port: 443, decision: 'allowed', bytesOut: 300, bytesIn: 5000, secret: 'API_KEY', method: 'GET', path: '/v1/items', status: 200 },
      { host: 'evil.example.net', port: 443, decision: 'denied', reason: 'denied by a rule (evil.example.net)\u001b[2J', bytesOut: 0, bytesIn: 0, method: 'CONNECT' },
    ],
    egressDropped: 4,
  });
  fake.details.set('run-2', detailOf(items[2]!));
  connectFake(fake);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  useHistoryStore.getState().reset();
});

async function open(id: string): Promise<HTMLElement> {
  window.location.hash = `#/history/${id}`;
  render(<HistoryPanel />);
  await act(settle);
  return screen.getByRole('complementary', { name: new RegExp(`Run ${id}`) });
}

describe('History detail: connections', () => {
  it('lists the run\'s connections, counts what was not recorded, and shows no escape sequence', async () => {
    const pane = await open('run-1');
    expect(within(pane).getByRole('heading', { name: 'Connections (6 connections · 1 denied)' })).toBeTruthy();
    const rows = within(within(pane).getByRole('list', { name: 'Connections the run made' })).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      'api.example.com:443allowedGET /v1/items → 200secret API_KEY300 B out · 4.9 KiB in',
      'evil.example.net:443denieddenied by a rule (evil.example.net)CONNECT0 B out · 0 B in',
    ]);
    expect(pane.textContent).toContain('4 more connections not recorded: a run keeps its first 500.');
    expect(pane.textContent).not.toContain('\u001b');
  });

  it('has no Connections section for a run that made none', async () => {
    const pane = await open('run-2');
    expect(within(pane).queryByRole('heading', { name: /^Connections/ })).toBeNull();
  });
});
