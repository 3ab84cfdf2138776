// The panel's smaller stores: settings, health, servers, sessions and UI state.
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../shared/settings.js';
import { useHealthStore } from '../../../../renderer/stores/health-store.js';
import { useServersStore } from '../../../../renderer/stores/servers-store.js';
import { useSessionsStore } from '../../../../renderer/stores/sessions-store.js';
import { useSettingsStore } from '../../../../renderer/stores/settings-store.js';
import { TOAST_LIMIT, useUiStore } from '../../../../renderer/stores/ui-store.js';
import { session } from './fixtures.js';
import { resetStores } from './reset.js';

beforeEach(resetStores);

describe('settings store', () => {
  it('updates the settings of the view it has and reports when it has none', () => {
    const change = { settings: { ...DEFAULT_SETTINGS, poolSize: 5 }, changed: ['poolSize'] };
    expect(useSettingsStore.getState().settingsChanged(change)).toBe(false);
    useSettingsStore.getState().settingsLoaded({ settings: DEFAULT_SETTINGS, defaults: DEFAULT_SETTINGS, locked: [], file: 'f' });
    expect(useSettingsStore.getState().settingsChanged(change)).toBe(true);
    expect(useSettingsStore.getState().view?.settings.poolSize).toBe(5);
    expect(useSettingsStore.getState().lastChanged).toEqual(['poolSize']);
  });
});

describe('health store', () => {
  it('tracks a probe and keeps the last report when a probe fails', () => {
    const report = { ok: true } as never;
    useHealthStore.getState().healthLoaded(report);
    useHealthStore.getState().probeStarted();
    expect(useHealthStore.getState().probing).toBe(true);
    useHealthStore.getState().probeFinished(null, 'runtime gone');
    expect(useHealthStore.getState()).toMatchObject({ probing: false, probeError: 'runtime gone', report });
  });
});

describe('servers store', () => {
  it('replaces the list on server.state and tracks tool lists per server', () => {
    useServersStore.getState().serverState({ servers: [{ name: 'a' } as never] });
    expect(useServersStore.getState().servers).toHaveLength(1);
    useServersStore.getState().toolsLoading('a');
    expect(useServersStore.getState().tools.a).toEqual({ state: 'loading' });
    useServersStore.getState().toolsFailed('a', 'boom');
    expect(useServersStore.getState().tools.a).toEqual({ state: 'failed', error: 'boom' });
  });
});

describe('toasts', () => {
  it('keeps at most TOAST_LIMIT, replaces an identical message, dismisses by id', () => {
    const ui = () => useUiStore.getState();
    for (let i = 0; i < TOAST_LIMIT + 2; i++) ui().toastShown('info', `m${i}`);
    expect(ui().toasts.map((t) => t.message)).toEqual(['m2', 'm3', 'm4', 'm5']);
    const again = ui().toastShown('ok', 'm3');
    expect(ui().toasts.map((t) => t.message)).toEqual(['m2', 'm4', 'm5', 'm3']);
    ui().toastDismissed(again);
    expect(ui().toasts.map((t) => t.message)).toEqual(['m2', 'm4', 'm5']);
  });
});

describe('sessions store', () => {
  it('takes the whole list from the snapshot and from every change, and drops one ended here at once', () => {
    const store = () => useSessionsStore.getState();
    store().sessionsLoaded([session('aa'), session('bb')]);
    expect(store().sessions.map((s) => s.id.slice(0, 2))).toEqual(['aa', 'bb']);
    store().sessionsChanged({ sessions: [session('bb', { calls: 2, busy: true })] });
    expect(store().sessions).toEqual([session('bb', { calls: 2, busy: true })]);
    store().sessionEnded(session('bb').id);
    expect(store().sessions).toEqual([]);
    store().sessionsLoaded([session('cc')]);
    store().sessionEnded(session('zz').id);
    expect(store().sessions).toHaveLength(1);
  });
});
