// The tray follows the router: ready → busy during a run → ready → broken when health fails; menu clicks
// become router calls (pause) or shell actions (open, copy, quit).
import { describe, expect, it } from 'vitest';
import type { HealthReport } from '../../../shared/health.js';
import type { LiveSnapshot, SettingsView } from '../../../shared/contract.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';
import { followLaunchAtLogin, TrayController, type TrayView } from '../../../electron/shell/tray-controller.js';
import type { TrayMenuItem, TrayState } from '../../../electron/shell/tray-model.js';
import { FakeRouter } from './fake-router.js';

const pool = { size: 2, ready: 2, starting: 0, lastError: null, refilling: false };

function health(ok: boolean, failing?: { label: string; detail: string }): HealthReport {
  return {
    ok,
    checkedAt: 1,
    runtime: null,
    image: { name: 'python:3.14-slim', present: true },
    seccomp: 'sandbar',
    enforced: { memory: ok, pids: ok, network: ok, readOnlyRoot: ok, capabilities: ok, seccomp: ok },
    checks: failing ? [{ id: 'runtime', label: failing.label, status: 'fail', detail: failing.detail, hint: 'install podman' }] : [],
  };
}

function snapshot(over: Partial<LiveSnapshot> = {}): LiveSnapshot {
  return { running: [], queued: [], recent: [], pool, paused: false, memoryLimitBytes: 512 * 1024 * 1024, ...over };
}

class FakeView implements TrayView {
  states: { state: TrayState; tooltip: string }[] = [];
  menus: TrayMenuItem[][] = [];
  setState(state: TrayState, tooltip: string): void {
    this.states.push({ state, tooltip });
  }
  setMenu(items: TrayMenuItem[]): void {
    this.menus.push(items);
  }
  get state(): TrayState | undefined {
    return this.states.at(-1)?.state;
  }
  label(action: string): string | undefined {
    const item = this.menus.at(-1)?.find((i) => i.type === 'action' && i.action === action);
    return item && item.type === 'action' ? item.label : undefined;
  }
  info(): string[] {
    return (this.menus.at(-1) ?? []).flatMap((i) => (i.type === 'info' ? [i.label] : []));
  }
}

function setup(over: { health?: HealthReport | null; healthError?: boolean } = {}) {
  const router = new FakeRouter({
    'live.snapshot': { ok: true, value: snapshot() },
    'health.get': over.healthError
      ? { ok: false, error: { code: 'runtime_failed', message: 'probe crashed' } }
      : { ok: true, value: over.health === undefined ? health(true) : over.health },
    'endpoint.info': { ok: true, value: { url: 'http://127.0.0.1:7337/mcp', port: 7337, listening: true, error: null, tokenFile: '/t', panelTokenFile: '/p', sessions: 0 } },
    'live.setPaused': (args) => ({ ok: true, value: { paused: (args as { paused: boolean }).paused } }),
  });
  const view = new FakeView();
  const done: string[] = [];
  const copied: string[] = [];
  const logs: string[] = [];
  const controller = new TrayController({
    router,
    view,
    actions: { openPanel: () => done.push('open'), copyText: (t) => copied.push(t), quit: () => done.push('quit') },
    log: (m) => logs.push(m),
  });
  return { router, view, controller, done, copied, logs };
}

const live = (running: number, queued = 0, paused = false) => ({ paused, pool, running, queued });

describe('TrayController', () => {
  it('follows a run: ready → busy → ready → broken when the runtime goes away', async () => {
    const { router, view, controller } = setup();
    await controller.start();
    expect(view.state).toBe('ready');
    expect(view.info()).toEqual(['Ready', '0 running, 0 queued']);

    router.emit('live.changed', live(1));
    expect(view.state).toBe('busy');
    expect(view.info()).toContain('1 running, 0 queued');
    expect(view.states.at(-1)?.tooltip).toBe('Sandbar: Running code · 1 running, 0 queued');

    router.emit('live.changed', live(0));
    expect(view.state).toBe('ready');
    expect(view.info()).toContain('0 running, 0 queued');

    router.emit('health.changed', health(false, { label: 'Container runtime', detail: 'podman is no longer on PATH' }));
    expect(view.state).toBe('broken');
    expect(view.states.at(-1)?.tooltip).toBe('Sandbar: Not ready: Container runtime: podman is no longer on PATH');
    const sequence = view.states.map((s) => s.state).filter((s, i, all) => i === 0 || s !== all[i - 1]);
    expect(sequence).toEqual(['ready', 'busy', 'ready', 'broken']);
  });

  it('redraws only what changed', async () => {
    const { router, view, controller } = setup();
    await controller.start();
    const states = view.states.length;
    const menus = view.menus.length;
    router.emit('live.changed', live(0));
    expect(view.states.length).toBe(states);
    expect(view.menus.length).toBe(menus);
    router.emit('live.changed', live(0, 2));
    expect(view.states.length).toBe(states + 1); // the tooltip shows the queue
    expect(view.menus.length).toBe(menus + 1);
  });

  it('starts broken when health.get fails, ready-but-checking when there is no report yet', async () => {
    const failed = setup({ healthError: true });
    await failed.controller.start();
    expect(failed.view.state).toBe('broken');
    expect(failed.view.info()[0]).toBe('Not ready: health check failed: probe crashed');

    const unknown = setup({ health: null });
    await unknown.controller.start();
    expect(unknown.view.state).toBe('ready');
    expect(unknown.view.info()[0]).toBe('Checking the container runtime…');
    unknown.router.emit('health.changed', health(true));
    expect(unknown.view.info()[0]).toBe('Ready');
  });

  it('takes the initial counts from live.snapshot', async () => {
    const { router, view, controller } = setup();
    router.answer('live.snapshot', { ok: true, value: snapshot({ running: [{} as never], queued: [{} as never, {} as never], paused: true }) });
    await controller.start();
    expect(view.state).toBe('busy');
    expect(view.info()).toContain('1 running, 2 queued');
    expect(view.label('togglePause')).toBe('Resume new runs');
  });

  it('an event that arrives before the snapshot answers wins over the older snapshot', async () => {
    const { router, view, controller } = setup();
    let release: () => void = () => {};
    router.answer('live.snapshot', () => new Promise((resolve) => (release = () => resolve({ ok: true, value: snapshot() }))));
    const started = controller.start();
    await Promise.resolve();
    router.emit('live.changed', live(3));
    release();
    await started;
    expect(view.info()).toContain('3 running, 0 queued');
  });

  it('pause and resume go through live.setPaused and flip the label', async () => {
    const { router, view, controller } = setup();
    await controller.start();
    expect(view.label('togglePause')).toBe('Pause new runs');
    await controller.perform('togglePause');
    expect(router.calls.at(-1)).toMatchObject({ method: 'live.setPaused', args: { paused: true } });
    expect(view.label('togglePause')).toBe('Resume new runs');
    expect(view.states.at(-1)?.tooltip).toContain('new runs paused');
    await controller.perform('togglePause');
    expect(router.calls.at(-1)).toMatchObject({ method: 'live.setPaused', args: { paused: false } });
    expect(view.label('togglePause')).toBe('Pause new runs');
  });

  it('a refused pause keeps the label and is logged', async () => {
    const { router, view, controller, logs } = setup();
    await controller.start();
    router.answer('live.setPaused', { ok: false, error: { code: 'internal', message: 'nope' } });
    await controller.perform('togglePause');
    expect(view.label('togglePause')).toBe('Pause new runs');
    expect(logs.join('\n')).toContain('nope');
  });

  it('copy puts the endpoint URL on the clipboard; open and quit call the shell', async () => {
    const { router, controller, done, copied } = setup();
    await controller.start();
    await controller.perform('copyEndpoint');
    expect(copied).toEqual(['http://127.0.0.1:7337/mcp']);
    router.emit('endpoint.changed', { url: 'http://127.0.0.1:9000/mcp', port: 9000, listening: true, error: null, tokenFile: '/t', panelTokenFile: '/p', sessions: 0 });
    await controller.perform('copyEndpoint');
    expect(copied.at(-1)).toBe('http://127.0.0.1:9000/mcp');
    await controller.perform('open');
    await controller.perform('quit');
    expect(done).toEqual(['open', 'quit']);
  });

  it('copy is disabled while the listener is down', async () => {
    const { router, view, controller } = setup();
    await controller.start();
    router.emit('endpoint.changed', { url: null, port: 7337, listening: false, error: 'port in use', tokenFile: '/t', panelTokenFile: '/p', sessions: 0 });
    const copy = view.menus.at(-1)?.find((i) => i.type === 'action' && i.action === 'copyEndpoint');
    expect(copy).toMatchObject({ enabled: false });
  });

  it('dispose closes its event connection', async () => {
    const { router, controller } = setup();
    await controller.start();
    expect(router.openConnections()).toHaveLength(1);
    controller.dispose();
    expect(router.openConnections()).toEqual([]);
  });
});

describe('followLaunchAtLogin', () => {
  const view = (launchAtLogin: boolean): SettingsView => ({
    settings: { ...DEFAULT_SETTINGS, launchAtLogin },
    defaults: DEFAULT_SETTINGS,
    locked: [],
    file: '/home/u/.config/sandbar/settings.json',
  });

  it('applies the setting at start and when it changes, once per value', async () => {
    const router = new FakeRouter({ 'settings.get': { ok: true, value: view(true) } });
    const applied: boolean[] = [];
    const connection = await followLaunchAtLogin(router, (v) => applied.push(v));
    expect(applied).toEqual([true]);
    router.emit('settings.changed', { settings: { ...DEFAULT_SETTINGS, launchAtLogin: true, poolSize: 3 }, changed: ['poolSize'] });
    router.emit('settings.changed', { settings: { ...DEFAULT_SETTINGS, launchAtLogin: false }, changed: ['launchAtLogin'] });
    expect(applied).toEqual([true, false]);
    connection.close();
    router.emit('settings.changed', { settings: { ...DEFAULT_SETTINGS, launchAtLogin: true }, changed: ['launchAtLogin'] });
    expect(applied).toEqual([true, false]);
  });

  it('logs when the OS call throws and keeps going', async () => {
    const router = new FakeRouter({ 'settings.get': { ok: true, value: view(true) } });
    const logs: string[] = [];
    await followLaunchAtLogin(router, () => { throw new Error('not supported'); }, (m) => logs.push(m));
    expect(logs[0]).toContain('not supported');
  });
});
