// What the tray shows of a waiting question: server and tool, the code line, the arguments, the four answers;
// every label one bounded line without control characters (args and code come from untrusted code).
import { describe, expect, it } from 'vitest';
import { approvalMenuLines, approvalNotification, oneLine } from '../../../electron/shell/tray-approvals.js';
import { trayMenu, type TrayInput } from '../../../electron/shell/tray-model.js';
import { hasControlChars } from '../../../shared/control-chars.js';
import type { PendingApproval } from '../../../shared/approvals.js';

const approval: PendingApproval = {
  id: '0123456789ab',
  runId: 'fedcba9876543210',
  server: 'effects',
  tool: 'delete_item',
  args: { name: 'a\u001b[2Jb', note: 'x'.repeat(300) },
  expiresAt: 1_000,
  codeLine: 'line 7: await mcp_effects.delete_item(name=n)',
};

describe('tray approvals', () => {
  it('a submenu: run, code line, arguments, then the four answers bound to the question', () => {
    const lines = approvalMenuLines(approval);
    expect(lines.slice(0, 2)).toEqual([
      { type: 'info', label: 'Run fedcba98 · no answer in time means deny' },
      { type: 'info', label: 'line 7 (as reported by the sandbox): await mcp_effects.delete_item(name=n)' },
    ]);
    expect(lines[2]).toMatchObject({ type: 'info' });
    expect(lines[3]).toEqual({ type: 'separator' });
    expect(lines.slice(4)).toEqual([
      { type: 'decide', label: 'Allow once', action: { decide: '0123456789ab', decision: 'allow-once' } },
      { type: 'decide', label: 'Allow for this run', action: { decide: '0123456789ab', decision: 'allow-run' } },
      { type: 'decide', label: 'Always allow this tool', action: { decide: '0123456789ab', decision: 'allow-always' } },
      { type: 'decide', label: 'Deny', action: { decide: '0123456789ab', decision: 'deny' } },
    ]);
  });

  it('labels are one bounded line with no control characters', () => {
    for (const line of approvalMenuLines(approval)) {
      if (line.type === 'separator') continue;
      expect(line.label.length).toBeLessThanOrEqual(80);
      expect(hasControlChars(line.label)).toBe(false);
    }
    // U+009B is CSI: `\u009bc` is a whole sequence (final byte c), removed as one.
    expect(oneLine('a\n\tb\u009bc', 80)).toBe('a b');
    expect(oneLine('a\u202eb\u200bc\u001b]0;t\u0007d', 80)).toBe('abcd');
    expect(oneLine('x'.repeat(10), 5)).toBe('xxxx…');
  });

  it('without a code line the submenu simply has none', () => {
    const { codeLine: _none, ...plain } = approval;
    expect(approvalMenuLines(plain).filter((l) => l.type === 'info')).toHaveLength(2);
  });

  it('the notification names the server, tool, code line and choices', () => {
    const n = approvalNotification(approval);
    expect(n.id).toBe('0123456789ab');
    expect(n.body.split('\n')).toEqual([
      'Code wants to call effects/delete_item.',
      'line 7 (as reported by the sandbox): await mcp_effects.delete_item(name=n)',
      expect.stringMatching(/^Arguments: \{"name":"a\\u001b\[2Jb","note":"x+…$/),
      'Answer in the tray menu or the panel: Allow once, Allow for this run, Always allow this tool, Deny.',
    ]);
    expect(n.choices.map((c) => c.action)).toEqual(['allow-once', 'allow-run', 'allow-always', 'deny'].map((decision) => ({ decide: '0123456789ab', decision })));
  });

  it('the menu has the questions below Open Sandbar, oldest first, and none when nothing waits', () => {
    const input: TrayInput = { live: { paused: false, running: 1, queued: 0 }, health: { kind: 'report', report: { ok: true, checks: [] } }, endpointUrl: null, approvals: [approval, { ...approval, id: 'ffffffffffff', tool: 'send' }] };
    const menu = trayMenu(input);
    expect(menu.slice(0, 5).map((i) => ('label' in i ? i.label : i.type))).toEqual(['Open Sandbar', 'separator', 'Approve? effects/delete_item', 'Approve? effects/send', 'separator']);
    const none = trayMenu({ ...input, approvals: [] });
    expect(none.some((i) => i.type === 'submenu')).toBe(false);
  });
});
