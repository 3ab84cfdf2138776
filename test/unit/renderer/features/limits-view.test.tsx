// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../shared/settings.js';
import { ApiCallError } from '../../../../renderer/api/errors.js';
import { LimitsView } from '../../../../renderer/features/limits/limits-view.js';
import { useLiveStore } from '../../../../renderer/stores/live-store.js';
import { useSettingsStore } from '../../../../renderer/stores/settings-store.js';
import { snapshot } from '../stores/fixtures.js';
import { resetStores } from '../stores/reset.js';
import { fakeApi } from './api-mock.js';

vi.mock('../../../../renderer/api/index.js', async () => {
  const errors = await import('../../../../renderer/api/errors.js');
  const { fakeApi: api } = await import('./api-mock.js');
  return { api, ApiCallError: errors.ApiCallError, describeError: errors.describeError };
});

const view = { settings: DEFAULT_SETTINGS, defaults: DEFAULT_SETTINGS, locked: [{ path: 'image', source: 'SANDBAR_IMAGE' }], file: '/home/u/.config/sandbar/settings.json' };

beforeEach(() => {
  resetStores();
  fakeApi.calls.length = 0;
  fakeApi
    .handle('settings.previewFlags', ({ limits }) => ({ argv: ['podman', 'run', '--memory', String(limits.memory), 'python:3.14-slim'] }))
    .handle('settings.update', ({ patch }) => {
      const limits = { ...DEFAULT_SETTINGS.limits, ...(patch.limits as object) };
      return { settings: { ...DEFAULT_SETTINGS, ...patch, limits }, changed: Object.keys(patch.limits as object).map((k) => `limits.${k}`) };
    });
  useSettingsStore.getState().settingsLoaded(view);
});

afterEach(cleanup);

const box = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('LimitsView', () => {
  it('validates as the user types, with the shared schema messages, and blocks Apply', () => {
    render(<LimitsView />);
    fireEvent.change(box('Memory'), { target: { value: '512q' } });
    expect(screen.getByText('must be a size such as 512m or 1g')).toBeTruthy();
    expect(box('Memory').getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/fix the highlighted fields/)).toBeTruthy();
  });

  it('shows a locked field read-only with its source', () => {
    render(<LimitsView />);
    expect(box('Container image').readOnly).toBe(true);
    expect(screen.getByText('SANDBAR_IMAGE')).toBeTruthy();
  });

  it('applies only the changed fields and marks the pool refill', async () => {
    useLiveStore.getState().snapshotLoaded(snapshot());
    render(<LimitsView />);
    fireEvent.change(box('Processes'), { target: { value: '256' } });
    expect(screen.getByText('1 unsaved change')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    });
    expect(fakeApi.callsOf('settings.update')).toEqual([{ patch: { limits: { pids: 256 } } }]);
    expect(useSettingsStore.getState().view?.settings.limits.pids).toBe(256);
    expect(screen.getByText('No unsaved changes')).toBeTruthy();
    // Applying says nothing about the pool by itself: only the server's pool state does.
    expect(screen.queryByText(/Refilling the warm pool/)).toBeNull();
    act(() => useLiveStore.getState().liveChanged({ paused: false, pool: { size: 2, ready: 0, starting: 2, lastError: null, refilling: true }, running: 0, queued: 0 }));
    expect(screen.getByRole('status').textContent).toMatch(/Refilling the warm pool/);
  });

  it("shows the server's field errors under the fields", async () => {
    fakeApi.handle('settings.update', () => {
      throw new ApiCallError({ code: 'invalid_config', message: 'Invalid settings', fields: { 'limits.memory': 'more than this host has' } });
    });
    render(<LimitsView />);
    fireEvent.change(box('Memory'), { target: { value: '64g' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    });
    expect(screen.getByText('more than this host has')).toBeTruthy();
    fireEvent.change(box('Memory'), { target: { value: '63g' } });
    expect(screen.queryByText('more than this host has')).toBeNull();
  });

  it('previews the container flags for the draft, debounced', async () => {
    vi.useFakeTimers();
    try {
      render(<LimitsView />);
      fireEvent.change(box('Memory'), { target: { value: '1g' } });
      fireEvent.change(box('Memory'), { target: { value: '2g' } });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(400);
      });
      const previews = fakeApi.callsOf('settings.previewFlags') as { limits: { memory: string } }[];
      expect(previews.map((p) => p.limits.memory).filter((m) => m !== '512m')).toEqual(['2g']);
      expect(screen.getByText(/--memory 2g/)).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('resets the draft to the defaults and discards back to the settings in force', () => {
    useSettingsStore.getState().settingsLoaded({ ...view, settings: { ...DEFAULT_SETTINGS, poolSize: 6 } });
    render(<LimitsView />);
    expect(box('Warm pool').value).toBe('6');
    fireEvent.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    expect(box('Warm pool').value).toBe('2');
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(box('Warm pool').value).toBe('6');
  });
});
