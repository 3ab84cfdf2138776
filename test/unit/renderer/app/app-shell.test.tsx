// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../../renderer/app/app.js';
import { useConnectionStore } from '../../../../renderer/stores/connection-store.js';
import { useHealthStore } from '../../../../renderer/stores/health-store.js';
import { resetStores } from '../stores/reset.js';

vi.mock('../../../../renderer/api/index.js', async () => {
  const errors = await import('../../../../renderer/api/errors.js');
  const { fakeApi: api } = await import('../features/api-mock.js');
  return { api, ApiCallError: errors.ApiCallError, describeError: errors.describeError, NOT_AUTHORISED_HELP: errors.NOT_AUTHORISED_HELP };
});

beforeEach(() => {
  resetStores();
  history.replaceState(null, '', '/#/live');
});

afterEach(cleanup);

describe('App shell', () => {
  it('shows the not-authorised screen with what to do', () => {
    useConnectionStore.getState().connectionChanged('unauthorized');
    render(<App />);
    expect(screen.getByRole('heading', { name: 'Not authorised' })).toBeTruthy();
    expect(screen.getByText(/open the link printed by npm run serve, or copy it from the tray/i)).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('marks the current view in the sidebar and switches views with Alt+number', async () => {
    useConnectionStore.getState().connectionChanged('open');
    render(<App />);
    const nav = screen.getByRole('navigation', { name: 'Views' });
    expect(nav.querySelector('[aria-current="page"]')?.textContent).toBe('Live');
    await act(async () => {
      fireEvent.keyDown(window, { key: '2', code: 'Digit2', altKey: true });
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(location.hash).toBe('#/limits');
    expect(nav.querySelector('[aria-current="page"]')?.textContent).toBe('Limits');
    expect(screen.getByRole('heading', { level: 1, name: 'Limits' })).toBeTruthy();
  });

  it('says in the header when code cannot run safely', () => {
    useConnectionStore.getState().connectionChanged('open');
    useHealthStore.getState().healthLoaded({ ok: false, checks: [{ id: 'm', label: 'Memory', status: 'fail', detail: '' }] } as never);
    render(<App />);
    expect(screen.getByText('Not safe: 1 check failed')).toBeTruthy();
  });
});
