// The tray's part in approvals: a submenu per waiting question (server, tool, the code line, the arguments,
// and the four answers) and a notification when a new one arrives. Pure: the controller feeds it the
// pending list and sends the chosen answer to approvals.decide with via 'tray'.
import { displayJson, displayLine, DISPLAY_LIMITS } from '../../shared/display-text.js';
import { labelledCodeLine, type ApprovalDecision, type PendingApproval } from '../../shared/approvals.js';

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

/** Menu labels and notification text come from code and config: the shared sanitiser's one bounded line. */
export const oneLine = displayLine;

const LABEL_MAX = DISPLAY_LIMITS.menuLabel;
const NOTE_MAX = DISPLAY_LIMITS.notificationLine;
const args = (a: PendingApproval, max: number) => oneLine(`Arguments: ${displayJson(a.args, max)}`, max);
const identical = (a: PendingApproval) => (a.calls && a.calls > 1 ? ` (${a.calls} identical calls wait: the answer covers each)` : '');

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
    { type: 'info', label: oneLine(`Run ${a.runId.slice(0, 8)} · no answer in time means deny${identical(a)}`, LABEL_MAX) },
    ...(a.codeLine ? [{ type: 'info' as const, label: labelledCodeLine(a.codeLine, LABEL_MAX) }] : []),
    { type: 'info', label: args(a, LABEL_MAX) },
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
    `Code wants to call ${approvalTitle(a)}${identical(a)}.`,
    ...(a.codeLine ? [labelledCodeLine(a.codeLine, NOTE_MAX)] : []),
    args(a, NOTE_MAX),
    `Answer in the tray menu or the panel: ${TRAY_CHOICES.map((c) => c.label).join(', ')}.`,
  ];
  return {
    id: a.id,
    title: 'Sandbar: a tool call needs your answer',
    body: lines.join('\n'),
    choices: TRAY_CHOICES.map((c) => ({ label: c.label, action: { decide: a.id, decision: c.decision } })),
  };
}
