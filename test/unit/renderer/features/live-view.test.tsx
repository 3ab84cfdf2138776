// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveView } from '../../../../renderer/features/live/live-view.js';
import { installBridge } from '../../../../renderer/stores/bridge.js';
import { useEndpointStore } from '../../../../renderer/stores/endpoint-store.js';
import { useLiveStore } from '../../../../renderer/stores/live-store.js';
import { setFrameScheduler } from '../../../../renderer/stores/output-store.js';
import { finished, running, session, snapshot, summary } from '../stores/fixtures.js';
import { resetStores } from '../stores/reset.js';
import { fakeApi } from './api-mock.js';

vi.mock('../../../../renderer/api/index.js', async () => {
  const errors = await import('../../../../renderer/api/errors.js');
  const { fakeApi: api } = await import('./api-mock.js');
  return { api, ApiCallError: errors.ApiCallError, describeError: errors.describeError };
});

const endpoint = { url: 'http://127.0.0.1:7337/mcp', port: 7337, listening: true, error: null, tokenFile: '/t', panelTokenFile: '/p', sessions: 0 };
let live = snapshot();
let sessions: ReturnType<typeof session>[] = [];

beforeEach(() => {
  resetStores();
  setFrameScheduler((flush) => flush());
  fakeApi.calls.length = 0;
  live = snapshot();
  sessions = [];
  fakeApi
    .handle('sessions.list', () => sessions)
    .handle('live.snapshot', () => live)
    .handle('settings.get', () => ({ settings: {}, defaults: {}, locked: [], file: '' }) as never)
    .handle('health.get', () => null)
    .handle('servers.list', () => [])
    .handle('endpoint.info', () => endpoint)
    .handle('output.subscribe', ({ id }) => ({ id, stdout: 'hello\n', stderr: 'Traceback\n', clipped: false }))
    .handle('output.unsubscribe', () => ({ ok: true }))
    .handle('executions.cancel', () => ({ cancelled: true }))
    .handle('live.setPaused', ({ paused }) => ({ paused }));
});

afterEach(() => {
  cleanup();
  setFrameScheduler(null);
});

async function mount(): Promise<void> {
  const bridge = installBridge(fakeApi);
  await act(async () => {
    await bridge.refresh();
  });
  render(<LiveView />);
  await act(async () => {});
}

describe('LiveView', () => {
  it('lists open sessions from the snapshot and drops one when sessions.changed says it ended', async () => {
    sessions = [session('3f2a9c0d', { calls: 2 })];
    await mount();
    expect(screen.getByRole('listitem', { name: 'Session 3f2a9c0d from e2e-agent 1.0.0' }).textContent).toContain('2 calls');
    // Nothing is running: the connect help still shows, under the sessions.
    expect(screen.getByText('Nothing running')).toBeTruthy();
    await act(async () => fakeApi.emit('sessions.changed', { sessions: [] }));
    expect(screen.queryByRole('heading', { name: /Sessions/ })).toBeNull();
  });

  it('tells an idle user how to connect, with the endpoint URL and a way to Clients', async () => {
    useEndpointStore.getState().endpointChanged(endpoint);
    await mount();
    expect(screen.getByText('Nothing running')).toBeTruthy();
    expect(screen.getByText(endpoint.url)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Set up a client' }).getAttribute('href')).toBe('#/clients');
  });

  it('shows a running run with time and memory against their limits, and streams its output', async () => {
    live = snapshot({ running: [running('run-1', { startedAt: Date.now() - 3_000, memoryBytes: 128 * 1024 ** 2, client: { name: 'claude-code', version: '2.1' } })] });
    await mount();
    expect(screen.getByText('claude-code 2.1')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Memory in use against the limit' }).getAttribute('aria-valuenow')).toBe('25');
    expect(screen.getByText('128 MiB / 512 MiB')).toBeTruthy();
    expect(fakeApi.callsOf('output.subscribe')).toEqual([{ id: 'run-1' }]);
    const pane = screen.getByLabelText('Output of run run-1');
    expect(pane.textContent).toContain('hello');
    expect(pane.querySelector('.output-stderr')?.textContent).toBe('Traceback\n');
    act(() => fakeApi.emit('output.chunk', { id: 'run-1', stdout: 'more\n', stderr: '' }));
    expect(pane.textContent).toContain('more');
  });

  it('kills a run with executions.cancel and unsubscribes its output when it ends', async () => {
    live = snapshot({ running: [running('run-1', { startedAt: Date.now() })] });
    await mount();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Kill run run-1' }));
    });
    expect(fakeApi.callsOf('executions.cancel')).toEqual([{ id: 'run-1' }]);
    act(() => fakeApi.emit('execution.finished', { result: finished('run-1', { exitReason: 'cancelled', exitCode: null }) }));
    expect(fakeApi.callsOf('output.unsubscribe')).toEqual([{ id: 'run-1' }]);
    expect(screen.getByText('cancelled')).toBeTruthy();
  });

  it('lists queued runs and puts finished ones in the recent strip, in words, linked to History', async () => {
    live = snapshot({ queued: [summary('q-1', { code: 'import this' })], recent: [finished('f-1', { exitReason: 'memory', exitCode: 137 })] });
    await mount();
    expect(screen.getByRole('list', { name: 'Queued runs' }).textContent).toContain('import this');
    const recent = screen.getByRole('list', { name: 'Recently finished runs' });
    expect(recent.textContent).toContain('killed: memory limit 512m');
    expect(recent.querySelector('a')?.getAttribute('href')).toBe('#/history/f-1');
  });

  it('pauses and resumes new runs', async () => {
    live = snapshot({ running: [running('r', { startedAt: Date.now() })] });
    await mount();
    await act(async () => {
      fireEvent.click(screen.getByRole('switch', { name: 'Pause new runs' }));
    });
    expect(fakeApi.callsOf('live.setPaused')).toEqual([{ paused: true }]);
    expect(useLiveStore.getState().paused).toBe(true);
    expect(screen.getByText(/New runs are paused/)).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    });
    expect(useLiveStore.getState().paused).toBe(false);
  });

  it('shows the figures of the newest finished run that made any, fetched on demand, linked to its History', async () => {
    let made = 0;
    URL.createObjectURL = vi.fn(() => `blob:test/${++made}`);
    URL.revokeObjectURL = vi.fn();
    fakeApi.handle('executions.artifact', ({ runId, name }) => ({ name, mimeType: 'image/png', size: 3, data: runId === 'f-2' ? 'AQID' : '' }));
    const figure = { name: 'figure-1.png', mimeType: 'image/png', size: 3, source: 'figure' as const, width: 640, height: 480, title: 'Sales' };
    live = snapshot({ recent: [finished('f-3'), finished('f-2', { artifacts: [figure] }), finished('f-1', { artifacts: [{ ...figure, title: 'Old' }] })] });
    await mount();
    await act(async () => {});
    const section = screen.getByRole('region', { name: 'Figures' });
    expect(section.querySelector('a')?.getAttribute('href')).toBe('#/history/f-2');
    expect(screen.getByRole('img', { name: "figure figure-1.png: 'Sales', 640×480" }).getAttribute('src')).toBe('blob:test/1');
    expect(fakeApi.callsOf('executions.artifact')).toEqual([{ runId: 'f-2', name: 'figure-1.png' }]);
    // A newer run with a figure takes its place.
    act(() => fakeApi.emit('execution.finished', { result: finished('f-4', { artifacts: [{ ...figure, title: 'Newer' }] }) }));
    await act(async () => {});
    expect(screen.getByRole('region', { name: 'Figures' }).querySelector('a')?.getAttribute('href')).toBe('#/history/f-4');
    expect(screen.getByText('Newer')).toBeTruthy();
  });

  it('shows no Figures section when no recent run made any', async () => {
    live = snapshot({ recent: [finished('f-1')] });
    await mount();
    expect(screen.queryByRole('region', { name: 'Figures' })).toBeNull();
  });
});
