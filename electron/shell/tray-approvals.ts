// The tray's part in approvals: a submenu per waiting question (server, tool, the code line, the arguments,
// and the four answers) and a notification when a new one arrives. Pure: the controller feeds it the
// pending list and sends the chosen answer to approvals.decide with via 'tray'.
import { stripControlChars } from '../../shared/control-chars.js';
import type { ApprovalDecision, PendingApproval } from '../../shared/approvals.js';

/** A menu click that answers one question. */
export interface TrayDecision {
  decide: string;
  decision: ApprovalDecision;
}

export const TRAY_CHOICES: readonly { decision: ApprovalDecision; label: string }[] = [
  { decision: 'allow-once', label: 'Allow once' },
  { decision: 'allow-run', label: 'Allow for this run' },
  { decision: 'allow-always', label: 'Always allow this tool' },
  { decision: 'deny', label: 'Deny' },
];

/** Menu labels and notification text come from code and config: one line, no control characters, bounded. */
export function oneLine(text: string, max: number): string {
  const flat = stripControlChars(text).replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

const LABEL_MAX = 80;

export function approvalTitle(a: Pick<PendingApproval, 'server' | 'tool'>): string {
  return oneLine(`${a.server}/${a.tool}`, LABEL_MAX - 10);
}

export type ApprovalMenuLine = { type: 'info'; label: string } | { type: 'separator' } | { type: 'decide'; label: string; action: TrayDecision };

/**
 * The lines of one question's submenu, top to bottom. No countdown: a menu is drawn when something changes,
 * so a number of seconds would be stale; the panel counts down.
 */
export function approvalMenuLines(a: PendingApproval): ApprovalMenuLine[] {
  return [
    { type: 'info', label: `Run ${a.runId.slice(0, 8)} · no answer in time means deny` },
    ...(a.codeLine ? [{ type: 'info' as const, label: oneLine(a.codeLine, LABEL_MAX) }] : []),
    { type: 'info', label: oneLine(`Arguments: ${JSON.stringify(a.args)}`, LABEL_MAX) },
    { type: 'separator' },
    ...TRAY_CHOICES.map((c) => ({ type: 'decide' as const, label: c.label, action: { decide: a.id, decision: c.decision } })),
  ];
}

export interface TrayNotification {
  /** One per question: a new question notifies once. */
  id: string;
  title: string;
  body: string;
  /** Buttons where the OS shows them (macOS); elsewhere the tray menu has the same answers. */
  choices: { label: string; action: TrayDecision }[];
}

export function approvalNotification(a: PendingApproval): TrayNotification {
  const lines = [
    `Code wants to call ${approvalTitle(a)}.`,
    ...(a.codeLine ? [oneLine(a.codeLine, 120)] : []),
    oneLine(`Arguments: ${JSON.stringify(a.args)}`, 120),
    `Answer in the tray menu or the panel: ${TRAY_CHOICES.map((c) => c.label).join(', ')}.`,
  ];
  return {
    id: a.id,
    title: 'Sandbar: a tool call needs your answer',
    body: lines.join('\n'),
    choices: TRAY_CHOICES.map((c) => ({ label: c.label, action: { decide: a.id, decision: c.decision } })),
  };
}
