// The tray follows the router: ready → busy during a run → ready → broken when health fails; menu clicks
// become router calls (pause) or shell actions (open, copy, quit).
import { describe, expect, it } from 'vitest';
import type { HealthReport } from '../../../shared/health.js';
import type { LiveSnapshot, SettingsView } from '../../../shared/contract.js';
import { DEFAULT_SETTINGS } from '../../../shared/settings.js';
import { followLaunchAtLogin, TrayController, type TrayView } from '../../../electron/shell/tray-controller.js';
import type { TrayNotification } from '../../../electron/shell/tray-approvals.js';
import type { PendingApproval } from '../../../shared/approvals.js';
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
  notifications: TrayNotification[] = [];
  notify(n: TrayNotification): void {
    this.notifications.push(n);
  }
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
    'approvals.list': { ok: true, value: [] },
  });
  const view = new FakeView();
  const done: string[] = [];
  const copied: string[] = [];
  const logs: string[] = [];
  const controller = new TrayController({
    router,
    view,
    actions: { openPanel: () => done.push('open'), copyText: (t) => copied.push(t), openLogs: () => done.push('logs'), quit: () => done.push('quit') },
    log: (m) => logs.push(m),
  });
  return { router, view, controller, done, copied, logs };
}

const live = (running: number, queued = 0, paused = false) => ({ paused, pool, running, queued });

const question = (id: string, over: Partial<PendingApproval> = {}): PendingApproval => ({
  id,
  runId: 'run-0123456789',
  server: 'effects',
  tool: 'delete_item',
  args: { name: 'a' },
  expiresAt: 120_000,
  codeLine: 'line 3: r = await mcp_effects.delete_item(name="a")',
  ...over,
});

describe('TrayController and approvals', () => {
  it('puts each waiting question in the menu and the tooltip, and notifies once per new question', async () => {
    const { router, view, controller } = setup();
    router.answer('approvals.list', { ok: true, value: [question('aaaaaaaaaaaa')] });
    await controller.start();
    expect(view.notifications.map((n) => n.id)).toEqual(['aaaaaaaaaaaa']);
    expect(view.notifications[0]!.body).toContain('line 3 (as reported by the sandbox): r = await mcp_effects.delete_item(name="a")');
    const menu = view.menus.at(-1)!;
    expect(menu[2]).toMatchObject({ type: 'submenu', label: 'Approve? effects/delete_item' });
    expect(view.states.at(-1)?.tooltip).toBe('Sandbar: Ready · 1 tool call waiting for you');

    router.emit('approvals.changed', { pending: [question('aaaaaaaaaaaa'), question('bbbbbbbbbbbb', { tool: 'send_mail' })] });
    expect(view.notifications.map((n) => n.id)).toEqual(['aaaaaaaaaaaa', 'bbbbbbbbbbbb']);
    expect(view.menus.at(-1)!.filter((i) => i.type === 'submenu').map((i) => i.label)).toEqual(['Approve? effects/delete_item', 'Approve? effects/send_mail']);

    router.emit('approvals.changed', { pending: [] });
    expect(view.menus.at(-1)!.some((i) => i.type === 'submenu')).toBe(false);
    expect(view.states.at(-1)?.tooltip).toBe('Sandbar: Ready');
  });

  it('a menu answer goes to approvals.decide with via tray and leaves the menu at once', async () => {
    const { router, view, controller } = setup();
    router.answer('approvals.list', { ok: true, value: [question('cccccccccccc')] });
    router.answer('approvals.decide', { ok: true, value: { decided: true } });
    await controller.start();
    const submenu = view.menus.at(-1)!.find((i) => i.type === 'submenu');
    const deny = submenu?.type === 'submenu' ? submenu.items.find((i) => i.type === 'action' && i.label === 'Deny') : undefined;
    expect(deny?.type === 'action' && deny.action).toEqual({ decide: 'cccccccccccc', decision: 'deny' });
    await controller.perform(deny!.type === 'action' ? deny!.action : 'open');
    expect(router.calls.filter((c) => c.method === 'approvals.decide').map((c) => c.args)).toEqual([{ id: 'cccccccccccc', decision: 'deny', via: 'tray' }]);
    expect(view.menus.at(-1)!.some((i) => i.type === 'submenu')).toBe(false);
  });

  it('a question answered elsewhere first is logged, not thrown', async () => {
    const { router, controller, logs } = setup();
    router.answer('approvals.decide', { ok: true, value: { decided: false } });
    await controller.start();
    await controller.perform({ decide: 'dddddddddddd', decision: 'allow-once' });
    expect(logs).toEqual(['tray: question dddddddddddd was already answered or expired']);
    router.answer('approvals.decide', { ok: false, error: { code: 'invalid_request', message: 'id: must be an approval id' } });
    await controller.perform({ decide: 'x', decision: 'allow-once' });
    expect(logs.at(-1)).toBe('tray: approvals.decide failed: id: must be an approval id');
  });
});

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

  it('copy puts the endpoint URL on the clipboard; open, open logs and quit call the shell', async () => {
    const { router, controller, done, copied } = setup();
    await controller.start();
    await controller.perform('copyEndpoint');
    expect(copied).toEqual(['http://127.0.0.1:7337/mcp']);
    router.emit('endpoint.changed', { url: 'http://127.0.0.1:9000/mcp', port: 9000, listening: true, error: null, tokenFile: '/t', panelTokenFile: '/p', sessions: 0 });
    await controller.perform('copyEndpoint');
    expect(copied.at(-1)).toBe('http://127.0.0.1:9000/mcp');
    await controller.perform('open');
    await controller.perform('openLogs');
    await controller.perform('quit');
    expect(done).toEqual(['open', 'logs', 'quit']);
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
