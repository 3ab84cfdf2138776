// @vitest-environment jsdom
// The Live view's sessions: each with its client, calls, age, idle clock, memory and state; End asks the
// main process, is disabled while it does, takes the row off on success and says why on failure.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionsCard } from '../../../../renderer/features/live/sessions-card.js';
import { ApiCallError } from '../../../../renderer/api/errors.js';
import { useSessionsStore } from '../../../../renderer/stores/sessions-store.js';
import { useUiStore } from '../../../../renderer/stores/ui-store.js';
import { session } from '../stores/fixtures.js';
import { resetStores } from '../stores/reset.js';
import { fakeApi } from './api-mock.js';

vi.mock('../../../../renderer/api/index.js', async () => {
  const errors = await import('../../../../renderer/api/errors.js');
  const { fakeApi: api } = await import('./api-mock.js');
  return { api, ApiCallError: errors.ApiCallError, describeError: errors.describeError };
});

const NOW = 1_700_000_000_000;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(NOW);
  resetStores();
  fakeApi.calls.length = 0;
  fakeApi.handle('sessions.close', () => ({ closed: true }));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const paused = session('3f2a9c0d', {
  client: { name: 'claude-code', version: '2.1.4' },
  calls: 3,
  openedAt: NOW - 125_000,
  lastCallAt: NOW - 20_000,
  idleExpiresAt: NOW + 545_000,
  memoryBytes: 212 * 1024 ** 2,
  checkpoints: [2, 3],
});
const busy = session('c07e51aa', { client: { name: 'cursor', version: null }, checkpoints: [], busy: true, openedAt: NOW - 4_000, idleExpiresAt: NOW + 600_000 });

describe('SessionsCard', () => {
  it('shows nothing while no session is open', () => {
    const { container } = render(<SessionsCard />);
    expect(container.innerHTML).toBe('');
  });

  it('lists each session with its client, calls, age, idle clock, memory and state; the clock counts down', () => {
    act(() => useSessionsStore.getState().sessionsChanged({ sessions: [paused, busy] }));
    render(<SessionsCard />);
    expect(screen.getByRole('heading', { name: 'Sessions (2)' })).toBeTruthy();
    const row = screen.getByRole('listitem', { name: 'Session 3f2a9c0d from claude-code 2.1.4' });
    const text = row.textContent!;
    expect(text).toContain('paused');
    expect(text).toContain('3 calls');
    expect(text).toContain('open 2 min 5 s');
    expect(text).toContain('ends if idle in 9:05');
    expect(text).toContain('212 MiB in use');
    expect(text).toContain('steps back to 2, 3');
    act(() => vi.advanceTimersByTime(5_000));
    expect(row.textContent).toContain('ends if idle in 9:00');

    const other = screen.getByRole('listitem', { name: 'Session c07e51aa from cursor' }).textContent!;
    expect(other).toContain('in a call');
    expect(other).toContain('idle clock stopped');
    expect(other).toContain('1 call');
    expect(other).toContain('memory not sampled');
    expect(other).toContain('no checkpoints');
    expect(other).not.toContain('ends if idle');
  });

  it('End closes the session, is disabled while it does, and the row goes', async () => {
    let answer: (v: { closed: boolean }) => void = () => {};
    fakeApi.handle('sessions.close', () => new Promise((r) => (answer = r)));
    act(() => useSessionsStore.getState().sessionsChanged({ sessions: [paused, busy] }));
    render(<SessionsCard />);
    const end = screen.getByRole('button', { name: 'End session 3f2a9c0d' }) as HTMLButtonElement;
    fireEvent.click(end);
    expect(end.disabled).toBe(true);
    fireEvent.click(end);
    expect(fakeApi.callsOf('sessions.close')).toEqual([{ id: paused.id }]);
    await act(async () => answer({ closed: true }));
    expect(screen.queryByRole('listitem', { name: /Session 3f2a9c0d/ })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Sessions (1)' })).toBeTruthy();
  });

  it('says so when the session had already ended', async () => {
    fakeApi.handle('sessions.close', () => ({ closed: false }));
    act(() => useSessionsStore.getState().sessionsChanged({ sessions: [paused] }));
    render(<SessionsCard />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'End session 3f2a9c0d' })));
    expect(useUiStore.getState().toasts.map((t) => t.message)).toEqual(['That session had already ended.']);
    expect(screen.queryByRole('heading', { name: /Sessions/ })).toBeNull();
  });

  it('shows why End failed and keeps the row, with End usable again', async () => {
    fakeApi.handle('sessions.close', () => {
      throw new ApiCallError({ code: 'runtime_failed', message: 'podman rm failed: device busy' });
    });
    act(() => useSessionsStore.getState().sessionsChanged({ sessions: [paused] }));
    render(<SessionsCard />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'End session 3f2a9c0d' })));
    const row = screen.getByRole('listitem', { name: /Session 3f2a9c0d/ });
    expect(within(row).getByRole('alert').textContent).toBe('Could not end session 3f2a9c0d: podman rm failed: device busy');
    expect((within(row).getByRole('button', { name: 'End session 3f2a9c0d' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
