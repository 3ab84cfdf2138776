// One wording of an approval question and one reading of its answer, whichever revision carries them.
import { describe, expect, it } from 'vitest';
import { approvalElicitation, decisionFromElicitation } from '../../../electron/mcp/approval-question.js';

const approval = { id: 'q1', runId: 'r1', server: 'files', tool: 'delete', args: { path: '/tmp/x' }, expiresAt: 0 };

describe('approvalElicitation', () => {
  it('names the call and its arguments and offers the three decisions', () => {
    const form = approvalElicitation(approval);
    expect(form.message).toBe('Code in run_python wants to call files/delete with {"path":"/tmp/x"}. Allow it?');
    expect(form.requestedSchema.properties.decision.enum).toEqual(['allow-once', 'allow-run', 'deny']);
    expect(form.requestedSchema.required).toEqual(['decision']);
  });

  it('cuts long arguments', () => {
    const form = approvalElicitation({ ...approval, args: { text: 'x'.repeat(5000) } });
    expect(form.message.length).toBeLessThan(2100);
    expect(form.message).toContain('…. Allow it?');
  });
});

describe('decisionFromElicitation', () => {
  it('reads an accepted decision', () => {
    for (const d of ['allow-once', 'allow-run', 'deny'] as const) expect(decisionFromElicitation({ action: 'accept', content: { decision: d } })).toBe(d);
  });

  it('takes a decline or a cancel as a no', () => {
    expect(decisionFromElicitation({ action: 'decline' })).toBe('deny');
    expect(decisionFromElicitation({ action: 'cancel' })).toBe('deny');
  });

  it('takes anything else as no answer (the question stays open), allow-always included', () => {
    for (const junk of [undefined, null, 'accept', {}, { action: 'accept' }, { action: 'accept', content: { decision: 'allow-always' } }, { action: 'accept', content: 'yes' }, { action: 'maybe' }]) {
      expect(decisionFromElicitation(junk)).toBeNull();
    }
  });
});
