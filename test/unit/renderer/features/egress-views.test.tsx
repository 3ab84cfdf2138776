// @vitest-environment jsdom
// A run's connections as people see them: the list (host:port, decision and reason, bytes, secret by name,
// the request), sandbox strings through the one sanitiser, the unrecorded count; Live's running card from
// execution.egress events and its latest finished run from the result.
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EgressRecord } from '../../../../shared/egress-audit.js';
import { EgressList, egressSummary } from '../../../../renderer/features/egress/egress-list.js';
import { LiveView } from '../../../../renderer/features/live/live-view.js';
import { installBridge } from '../../../../renderer/stores/bridge.js';
import { setFrameScheduler } from '../../../../renderer/stores/output-store.js';
import { finished, running, snapshot } from '../stores/fixtures.js';
import { resetStores } from '../stores/reset.js';
import { fakeApi } from './api-mock.js';

vi.mock('../../../../renderer/api/index.js', async () => {
  const errors = await import('../../../../renderer/api/errors.js');
  const { fakeApi: api } = await import('./api-mock.js');
  return { api, ApiCallError: errors.ApiCallError, describeError: errors.describeError };
});

const RECORDS: EgressRecord[] = [
  { host: 'api.example.com', port: 443, decision: 'allowed', bytesOut: 2048, bytesIn: 3 * 1024 * 1024, secret: 'API_KEY', method: 'GET', path: '/v1/items', status: 200 },
  // What hostile code could send: an escape sequence in the path, a bidi override in the reason.
  { host: 'evil.example.net', port: 80, decision: 'denied', reason: 'not allowed\u202e(gnirts)', bytesOut: 0, bytesIn: 0, method: 'POST', path: '/\u001b[31mcollect\u200b' },
  { host: 'fd00::1', port: 8443, decision: 'denied', reason: 'private address fd00::1', bytesOut: 0, bytesIn: 0 },
];

afterEach(() => {
  cleanup();
  setFrameScheduler(null);
});

describe('EgressList', () => {
  it('shows each connection in words, the secret by name only, and what went unrecorded', () => {
    render(<EgressList records={RECORDS} dropped={2} label="Connections" />);
    const rows = within(screen.getByRole('list', { name: 'Connections' })).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]!.textContent).toBe('api.example.com:443allowedGET /v1/items → 200secret API_KEY2 KiB out · 3 MiB in');
    expect(rows[2]!.textContent).toContain('[fd00::1]:8443denied');
    expect(screen.getByText('2 more connections not recorded: a run keeps its first 500.')).toBeTruthy();
    expect(egressSummary(RECORDS, 2)).toBe('5 connections · 2 denied');
    expect(egressSummary(RECORDS.slice(0, 1))).toBe('1 connection');
  });

  it('passes every sandbox string through the sanitiser: no escape, bidi or invisible character reaches the page', () => {
    const { container } = render(<EgressList records={RECORDS} label="Connections" />);
    const text = container.textContent!;
    expect(text).toContain('POST /collect');
    expect(text).toContain('not allowed(gnirts)');
    for (const hidden of ['\u001b', '\u202e', '\u200b']) expect(text).not.toContain(hidden);
  });
});

describe('Live and a run\'s connections', () => {
  let live = snapshot();

  beforeEach(() => {
    resetStores();
    setFrameScheduler((flush) => flush());
    live = snapshot();
    fakeApi
      .handle('sessions.list', () => [])
      .handle('live.snapshot', () => live)
      .handle('settings.get', () => ({ settings: {}, defaults: {}, locked: [], file: '' }) as never)
      .handle('health.get', () => null)
      .handle('servers.list', () => [])
      .handle('endpoint.info', () => ({ url: null, port: null, listening: false, error: null, tokenFile: '', panelTokenFile: '', sessions: 0 }) as never)
      .handle('approvals.list', () => [])
      .handle('output.subscribe', ({ id }) => ({ id, stdout: '', stderr: '', clipped: false }))
      .handle('output.unsubscribe', () => ({ ok: true }));
  });

  async function mount(): Promise<void> {
    const bridge = installBridge(fakeApi);
    await act(async () => {
      await bridge.refresh();
    });
    render(<LiveView />);
    await act(async () => {});
  }

  it('shows a running run\'s connections as its events arrive, one row per connection', async () => {
    live = snapshot({ running: [running('run-1', { startedAt: Date.now() })] });
    await mount();
    expect(screen.queryByRole('region', { name: 'Connections of run run-1' })).toBeNull();
    act(() => fakeApi.emit('execution.egress', { id: 'run-1', record: { host: 'api.example.com', port: 443, decision: 'allowed', bytesOut: 0, bytesIn: 0, method: 'CONNECT' } }));
    act(() => fakeApi.emit('execution.egress', { id: 'run-1', record: RECORDS[1]! }));
    const card = screen.getByRole('region', { name: 'Connections of run run-1' });
    expect(card.textContent).toContain('Connections · 2 connections · 1 denied');
    act(() => fakeApi.emit('execution.egress', { id: 'run-1', record: { host: 'api.example.com', port: 443, decision: 'allowed', bytesOut: 512, bytesIn: 4096, method: 'CONNECT' } }));
    const rows = within(card).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('512 B out · 4 KiB in');
  });

  it('shows the latest finished run\'s connections from its result, with a link to it in History', async () => {
    live = snapshot({ recent: [finished('run-new'), finished('run-net', { egress: RECORDS, egressDropped: 1 }), finished('run-old', { egress: RECORDS.slice(0, 1) })] });
    await mount();
    const section = screen.getByRole('heading', { name: 'Connections' }).closest('section')!;
    expect(section.textContent).toContain('the latest that used the network: 4 connections · 2 denied');
    expect(within(section).getByRole('link', { name: 'run-net' }).getAttribute('href')).toBe('#/history/run-net');
    expect(within(section).getAllByRole('listitem')).toHaveLength(3);
    expect(section.textContent).toContain('1 more connection not recorded');
    // Recent counts each run's connections; a run that made none says nothing about them.
    const recent = within(screen.getByRole('list', { name: 'Recently finished runs' })).getAllByRole('listitem');
    expect(recent.map((r) => r.textContent?.includes('connection'))).toEqual([false, true, true]);
    expect(recent[1]!.textContent).toContain('4 connections · 2 denied');
  });
});
