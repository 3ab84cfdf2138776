// The tray's state, menu and tooltip as a pure function of what the router reports (live counts, health,
// endpoint). The controller feeds it; the Electron tray only draws what it returns.
import type { PendingApproval } from '../../shared/approvals.js';
import type { HealthReport } from '../../shared/health.js';
import { approvalMenuLines, approvalTitle, type TrayDecision } from './tray-approvals.js';

export type TrayState = 'ready' | 'busy' | 'broken';

export interface TrayLive {
  paused: boolean;
  running: number;
  queued: number;
}

/** Health as the tray knows it: a report, nothing yet, or the last attempt to get one failed. */
export type TrayHealth =
  | { kind: 'unknown' }
  | { kind: 'failed'; message: string }
  | { kind: 'report'; report: Pick<HealthReport, 'ok' | 'checks'> };

export interface TrayInput {
  live: TrayLive | null;
  health: TrayHealth;
  endpointUrl: string | null;
  /** Tool calls from code waiting for an answer (approvals.list / approvals.changed). */
  approvals: PendingApproval[];
}

/** A shell action, or an answer to one waiting question. */
export type TrayAction = 'open' | 'copyEndpoint' | 'togglePause' | 'openLogs' | 'quit' | TrayDecision;

export type TrayMenuItem =
  | { type: 'action'; action: TrayAction; label: string; enabled: boolean }
  | { type: 'submenu'; label: string; items: TrayMenuItem[] }
  /** A line of text (shown disabled). */
  | { type: 'info'; label: string }
  | { type: 'separator' };

export interface TrayPresentation {
  state: TrayState;
  paused: boolean;
  tooltip: string;
  menu: TrayMenuItem[];
}

export const INITIAL_TRAY_INPUT: TrayInput = { live: null, health: { kind: 'unknown' }, endpointUrl: null, approvals: [] };

/** Windows cuts tray tooltips at 127 characters. */
const TOOLTIP_MAX = 127;

/** Broken when code cannot run safely (health not ok: runtime or image missing, a limit not enforced) or health could not be checked. */
export function trayState(input: TrayInput): TrayState {
  if (input.health.kind === 'failed') return 'broken';
  if (input.health.kind === 'report' && !input.health.report.ok) return 'broken';
  return (input.live?.running ?? 0) > 0 ? 'busy' : 'ready';
}

/** Why the tray is broken, in a few words: the first failing check, else the first warning. */
export function brokenReason(health: TrayHealth): string {
  if (health.kind === 'failed') return `health check failed: ${health.message}`;
  if (health.kind !== 'report') return '';
  const checks = health.report.checks;
  const check = checks.find((c) => c.status === 'fail') ?? checks.find((c) => c.status === 'warn');
  return check ? `${check.label}: ${check.detail}` : 'the last health check did not pass';
}

export function countsLabel(live: TrayLive | null): string {
  if (!live) return 'Starting…';
  return `${live.running} running, ${live.queued} queued`;
}

function statusLine(state: TrayState, input: TrayInput): string {
  if (state === 'broken') return `Not ready: ${brokenReason(input.health)}`;
  if (input.health.kind === 'unknown') return 'Checking the container runtime…';
  return state === 'busy' ? 'Running code' : 'Ready';
}

export function trayTooltip(input: TrayInput): string {
  const state = trayState(input);
  const parts = [`Sandbar: ${statusLine(state, input)}`];
  if (input.live && (input.live.running > 0 || input.live.queued > 0)) parts.push(countsLabel(input.live));
  if (input.live?.paused) parts.push('new runs paused');
  if (input.approvals.length > 0) parts.push(input.approvals.length === 1 ? '1 tool call waiting for you' : `${input.approvals.length} tool calls waiting for you`);
  const text = parts.join(' · ');
  return text.length <= TOOLTIP_MAX ? text : `${text.slice(0, TOOLTIP_MAX - 1)}…`;
}

export function trayMenu(input: TrayInput): TrayMenuItem[] {
  const state = trayState(input);
  const paused = input.live?.paused ?? false;
  return [
    { type: 'action', action: 'open', label: 'Open Sandbar', enabled: true },
    { type: 'separator' },
    ...approvalsMenu(input.approvals),
    { type: 'info', label: truncate(statusLine(state, input), 80) },
    { type: 'info', label: countsLabel(input.live) },
    { type: 'separator' },
    { type: 'action', action: 'copyEndpoint', label: 'Copy endpoint URL', enabled: input.endpointUrl !== null },
    { type: 'action', action: 'togglePause', label: paused ? 'Resume new runs' : 'Pause new runs', enabled: input.live !== null },
    // The log a tray app started at login writes ($SANDBAR_HOME/logs): where to look when something went wrong.
    { type: 'action', action: 'openLogs', label: 'Open logs', enabled: true },
    { type: 'separator' },
    { type: 'action', action: 'quit', label: 'Quit Sandbar', enabled: true },
  ];
}

/** One submenu per waiting question, oldest first, then a separator; nothing when none waits. */
function approvalsMenu(approvals: readonly PendingApproval[]): TrayMenuItem[] {
  if (approvals.length === 0) return [];
  const items: TrayMenuItem[] = approvals.map((a) => ({
    type: 'submenu',
    label: `Approve? ${approvalTitle(a)}`,
    items: approvalMenuLines(a).map((line): TrayMenuItem => (line.type === 'decide' ? { type: 'action', action: line.action, label: line.label, enabled: true } : line)),
  }));
  return [...items, { type: 'separator' }];
}

export function trayPresentation(input: TrayInput): TrayPresentation {
  return { state: trayState(input), paused: input.live?.paused ?? false, tooltip: trayTooltip(input), menu: trayMenu(input) };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
