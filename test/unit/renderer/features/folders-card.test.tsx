// @vitest-environment jsdom
// Limits › Folders: the desktop picks a folder and saves the list (the main process confirms it); a browser
// sees the list without controls; the judge's refusal comes back on its row; health's refused folder shows.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../shared/settings.js';
import { ApiCallError } from '../../../../renderer/api/errors.js';
import { FoldersCard } from '../../../../renderer/features/limits/folders-card.js';
import { suggestName } from '../../../../renderer/features/limits/folders-draft.js';
import { useHealthStore } from '../../../../renderer/stores/health-store.js';
import { resetStores } from '../stores/reset.js';
import { fakeApi } from './api-mock.js';

vi.mock('../../../../renderer/api/index.js', async () => {
  const errors = await import('../../../../renderer/api/errors.js');
  const { fakeApi: api } = await import('./api-mock.js');
  return { api, ApiCallError: errors.ApiCallError, describeError: errors.describeError };
});

const settings = { ...DEFAULT_SETTINGS, folders: [{ name: 'data', path: '/home/u/data' }] };
const view = { settings, defaults: DEFAULT_SETTINGS, locked: [], file: '/home/u/.config/sandbar/settings.json' };

beforeEach(() => {
  resetStores();
  fakeApi.calls.length = 0;
  (window as unknown as { sandbar?: object }).sandbar = {};
});

afterEach(() => {
  cleanup();
  delete (window as unknown as { sandbar?: object }).sandbar;
});

describe('FoldersCard', () => {
  it('adds a picked folder with a free name and saves the whole list, writable as switched', async () => {
    fakeApi.handle('folders.pick', () => ({ path: '/home/u/My Data' })).handle('settings.update', ({ patch }) => ({ settings: { ...settings, ...patch }, changed: ['folders'] }));
    render(<FoldersCard view={view} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add folder…' }));
    });
    expect(screen.getByText('/mnt/my-data')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('switch', { name: 'Writable' })[1]!);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save folders' }));
    });
    expect(fakeApi.callsOf('settings.update')).toEqual([{ patch: { folders: [{ name: 'data', path: '/home/u/data' }, { name: 'my-data', path: '/home/u/My Data', writable: true }] } }]);
  });

  it('shows the judge\'s refusal on its row and keeps the draft', async () => {
    fakeApi.handle('folders.pick', () => ({ path: '/home/u/.ssh' })).handle('settings.update', () => {
      throw new ApiCallError({ code: 'invalid_config', message: 'Some settings are not valid', fields: { 'folders.1.path': '/home/u/.ssh cannot be a folder in the sandbox: it is ~/.ssh' } });
    });
    render(<FoldersCard view={view} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add folder…' }));
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save folders' }));
    });
    expect(screen.getByRole('alert').textContent).toContain('it is ~/.ssh');
    expect(screen.getByText('/mnt/ssh')).toBeTruthy();
  });

  it('blocks a bad name as it is typed', () => {
    render(<FoldersCard view={view} />);
    fireEvent.change(screen.getByLabelText('Name of /home/u/data'), { target: { value: 'Bad Name' } });
    expect(screen.getByRole('alert').textContent).toContain('must be a name');
    expect((screen.getByRole('button', { name: 'Save folders' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('in a browser lists the folders without controls and says where they are changed', () => {
    delete (window as unknown as { sandbar?: object }).sandbar;
    render(<FoldersCard view={view} />);
    expect(screen.getByText('/home/u/data')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add folder…' })).toBeNull();
    expect(screen.getByText(/a browser cannot change them/)).toBeTruthy();
  });

  it('shows health\'s refused folder with its rule', () => {
    useHealthStore.getState().healthLoaded({ checks: [{ id: 'folders', label: 'Folders', status: 'warn', detail: 'Refused, not mounted: keys (/home/u/.ssh) is ~/.ssh' }] } as never);
    render(<FoldersCard view={view} />);
    expect(screen.getByTestId('folders-refused').textContent).toContain('keys (/home/u/.ssh) is ~/.ssh');
  });

  it('suggests names that fit /mnt/<name>', () => {
    expect(suggestName('/home/u/Quarterly Reports 2026', [])).toBe('quarterly-reports-2026');
    expect(suggestName('/home/u/data', ['data'])).toBe('data-2');
    expect(suggestName('/home/u/ünïcode', [])).toBe('n-code');
    expect(suggestName('/', [])).toBe('folder');
  });
});
