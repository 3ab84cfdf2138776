// Keeps the tray in step with the control router: subscribes to its events, loads the initial state,
// redraws through an injected view and turns menu clicks into router calls or shell actions.
import type { EventMessage, EventName, MethodArgs, MethodName, MethodResult, Envelope } from '../../shared/contract.js';
import type { ControlConnection, ControlHandler } from '../control/control-handler.js';
import { approvalNotification, type TrayDecision, type TrayNotification } from './tray-approvals.js';
import { INITIAL_TRAY_INPUT, trayPresentation, type TrayAction, type TrayInput, type TrayMenuItem, type TrayState } from './tray-model.js';

/** What the Electron tray implements (electron/tray.ts); a fake in tests. */
export interface TrayView {
  setState(state: TrayState, tooltip: string): void;
  setMenu(items: TrayMenuItem[]): void;
  /** A new question for the person (approvals); absent: the menu alone carries it. */
  notify?(notification: TrayNotification): void;
}

/** What the shell does for menu entries that are not router calls. */
export interface TrayActions {
  openPanel(): void;
  copyText(text: string): void;
  /** Opens the folder of the log file (the Electron edge: shell.openPath). */
  openLogs(): void;
  quit(): void;
}

function isEvent<E extends EventName>(message: EventMessage, event: E): message is EventMessage<E> {
  return message.event === event;
}

/** router.call with the contract's types put back (the router checks the arguments itself). */
export async function callMethod<M extends MethodName>(router: ControlHandler, method: M, args: MethodArgs<M>): Promise<Envelope<MethodResult<M>>> {
  return (await router.call(method, args, { transport: 'ipc' })) as Envelope<MethodResult<M>>;
}

export class TrayController {
  private input: TrayInput = INITIAL_TRAY_INPUT;
  private connection: ControlConnection | null = null;
  /** Bumped by every event of a kind, so an initial load that answers late does not overwrite it. */
  private readonly versions = { live: 0, health: 0, endpoint: 0, approvals: 0 };
  /** Questions already notified: each new one notifies once, however often the list is sent again. */
  private readonly notified = new Set<string>();
  private drawn: { state: TrayState; tooltip: string; menu: string } | null = null;

  constructor(
    private readonly deps: {
      router: ControlHandler;
      view: TrayView;
      actions: TrayActions;
      log?: (message: string) => void;
    },
  ) {}

  /** Subscribes first, then loads, so nothing that happens in between is missed. */
  async start(): Promise<void> {
    if (this.connection) return;
    this.connection = this.deps.router.connect((message) => this.onEvent(message));
    this.render();
    await Promise.all([this.loadLive(), this.loadHealth(), this.loadEndpoint(), this.loadApprovals()]);
  }

  get current(): Readonly<TrayInput> {
    return this.input;
  }

  /** A menu entry was clicked. Never throws: failures are logged and the tray keeps its state. */
  async perform(action: TrayAction): Promise<void> {
    try {
      if (action === 'open') this.deps.actions.openPanel();
      else if (action === 'quit') this.deps.actions.quit();
      else if (action === 'openLogs') this.deps.actions.openLogs();
      else if (action === 'copyEndpoint') await this.copyEndpoint();
      else if (action === 'togglePause') await this.togglePause();
      else await this.decide(action);
    } catch (err) {
      this.log(`tray action ${typeof action === 'string' ? action : `${action.decision} ${action.decide}`} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  dispose(): void {
    this.connection?.close();
    this.connection = null;
  }

  private onEvent(message: EventMessage): void {
    if (isEvent(message, 'live.changed')) {
      this.versions.live++;
      const { paused, running, queued } = message.data;
      this.update({ live: { paused, running, queued } });
    } else if (isEvent(message, 'health.changed')) {
      this.versions.health++;
      this.update({ health: { kind: 'report', report: message.data } });
    } else if (isEvent(message, 'endpoint.changed')) {
      this.versions.endpoint++;
      this.update({ endpointUrl: message.data.url });
    } else if (isEvent(message, 'approvals.changed')) {
      this.versions.approvals++;
      this.approvalsChanged(message.data.pending);
    }
  }

  private async loadApprovals(): Promise<void> {
    const version = this.versions.approvals;
    const answer = await callMethod(this.deps.router, 'approvals.list', {});
    if (!answer.ok) return this.log(`tray: approvals.list failed: ${answer.error.message}`);
    if (version === this.versions.approvals) this.approvalsChanged(answer.value);
  }

  private approvalsChanged(pending: TrayInput['approvals']): void {
    this.update({ approvals: pending });
    for (const approval of pending) {
      if (this.notified.has(approval.id)) continue;
      this.notified.add(approval.id);
      this.deps.view.notify?.(approvalNotification(approval));
    }
    // Answered or expired questions never come back: forget them so the set stays as small as the list.
    const live = new Set(pending.map((a) => a.id));
    for (const id of this.notified) if (!live.has(id)) this.notified.delete(id);
  }

  /** An answer from the tray menu or a notification; the approvals.changed that follows confirms it. */
  private async decide(action: TrayDecision): Promise<void> {
    const answer = await callMethod(this.deps.router, 'approvals.decide', { id: action.decide, decision: action.decision, via: 'tray' });
    if (!answer.ok) return this.log(`tray: approvals.decide failed: ${answer.error.message}`);
    if (!answer.value.decided) this.log(`tray: question ${action.decide} was already answered or expired`);
    this.update({ approvals: this.input.approvals.filter((a) => a.id !== action.decide) });
  }

  private async loadLive(): Promise<void> {
    const version = this.versions.live;
    const answer = await callMethod(this.deps.router, 'live.snapshot', {});
    if (!answer.ok) return this.log(`tray: live.snapshot failed: ${answer.error.message}`);
    if (version !== this.versions.live) return;
    const { paused, running, queued } = answer.value;
    this.update({ live: { paused, running: running.length, queued: queued.length } });
  }

  private async loadHealth(): Promise<void> {
    const version = this.versions.health;
    const answer = await callMethod(this.deps.router, 'health.get', {});
    if (version !== this.versions.health) return;
    if (!answer.ok) this.update({ health: { kind: 'failed', message: answer.error.message } });
    else if (answer.value) this.update({ health: { kind: 'report', report: answer.value } });
  }

  private async loadEndpoint(): Promise<string | null> {
    const version = this.versions.endpoint;
    const answer = await callMethod(this.deps.router, 'endpoint.info', {});
    if (!answer.ok) {
      this.log(`tray: endpoint.info failed: ${answer.error.message}`);
      return null;
    }
    if (version === this.versions.endpoint) this.update({ endpointUrl: answer.value.url });
    return answer.value.url;
  }

  private async copyEndpoint(): Promise<void> {
    const url = this.input.endpointUrl ?? (await this.loadEndpoint());
    if (url) this.deps.actions.copyText(url);
  }

  private async togglePause(): Promise<void> {
    const paused = !(this.input.live?.paused ?? false);
    const answer = await callMethod(this.deps.router, 'live.setPaused', { paused });
    if (!answer.ok) return this.log(`tray: live.setPaused failed: ${answer.error.message}`);
    if (this.input.live) this.update({ live: { ...this.input.live, paused: answer.value.paused } });
  }

  private update(patch: Partial<TrayInput>): void {
    this.input = { ...this.input, ...patch };
    this.render();
  }

  private render(): void {
    const view = trayPresentation(this.input);
    const menu = JSON.stringify(view.menu);
    if (!this.drawn || this.drawn.state !== view.state || this.drawn.tooltip !== view.tooltip) this.deps.view.setState(view.state, view.tooltip);
    if (!this.drawn || this.drawn.menu !== menu) this.deps.view.setMenu(view.menu);
    this.drawn = { state: view.state, tooltip: view.tooltip, menu };
  }

  private log(message: string): void {
    this.deps.log?.(message);
  }
}

/**
 * Applies `launchAtLogin` now and whenever the setting changes (the OS call is passed in: Electron's
 * app.setLoginItemSettings). Returns the event connection; close it on quit.
 */
export async function followLaunchAtLogin(
  router: ControlHandler,
  apply: (openAtLogin: boolean) => void,
  log: (message: string) => void = () => {},
): Promise<ControlConnection> {
  let applied: boolean | null = null;
  let seen = 0;
  const set = (value: boolean) => {
    if (value === applied) return;
    applied = value;
    try {
      apply(value);
    } catch (err) {
      log(`launch at login could not be set: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  const connection = router.connect((message) => {
    if (!isEvent(message, 'settings.changed')) return;
    seen++;
    set(message.data.settings.launchAtLogin);
  });
  const answer = await callMethod(router, 'settings.get', {});
  if (!answer.ok) log(`settings.get failed: ${answer.error.message}`);
  else if (seen === 0) set(answer.value.settings.launchAtLogin);
  return connection;
}
