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

  it('cuts long arguments: the whole message is at most 4 KiB of UTF-8, and still asks', () => {
    for (const text of ['x'.repeat(300_000), '😀'.repeat(100_000), 'é'.repeat(100_000)]) {
      const form = approvalElicitation({ ...approval, args: { text }, codeLine: `line 1: await mcp_files.delete(path=${'p'.repeat(5000)})` });
      expect(Buffer.byteLength(form.message)).toBeLessThanOrEqual(4096);
      expect(form.message).toMatch(/…\. Allow it\?$/);
      expect(form.message).toContain('(as reported by the sandbox)');
    }
  });

  it('shows no raw controls: escapes, bidi and zero-width characters in arguments are written as escapes', () => {
    const form = approvalElicitation({ ...approval, args: { path: '/tmp/\u001b]0;owned\u0007\u202eexe.txt\u200b' }, codeLine: 'line 2: await mcp_files.delete(path=p) # \u001b[2J\u2066' });
    // eslint-disable-next-line no-control-regex
    expect(form.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/);
    expect(form.message).toBe(
      'Code in run_python wants to call files/delete with {"path":"/tmp/\\u001b]0;owned\\u0007\\u202eexe.txt\\u200b"}, from line 2 (as reported by the sandbox): await mcp_files.delete(path=p) #. Allow it?',
    );
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
