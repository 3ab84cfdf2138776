// The broker's record of each question: what it shows (the code line among it), and the outcome it reports
// for history, bound to the hash of the call; refusals without a question are reported the same way.
import { describe, expect, it } from 'vitest';
import { ApprovalBroker, callKey } from '../../../electron/proxy/approval-broker.js';
import type { ApprovalOutcome, PendingApproval } from '../../../shared/approvals.js';

function broker() {
  const requested: PendingApproval[] = [];
  const resolved: ApprovalOutcome[] = [];
  let now = 1_000;
  const b = new ApprovalBroker({ timeoutMs: () => 60_000, onRequested: (a) => requested.push(a), onResolved: (o) => resolved.push(o), allowAlways: () => {}, now: () => now });
  return { b, requested, resolved, tick: (ms: number) => (now += ms) };
}

const call = { runId: 'run-1', server: 'effects', tool: 'delete_item', args: { name: 'a', force: true } };

describe('ApprovalBroker outcomes', () => {
  it('shows the code line with the question and reports the answer with the call hash and who gave it', async () => {
    const { b, requested, resolved, tick } = broker();
    const answer = b.request({ ...call, codeLine: 'line 4: await mcp_effects.delete_item(name="a", force=True)' });
    expect(requested[0]).toMatchObject({ ...call, codeLine: 'line 4: await mcp_effects.delete_item(name="a", force=True)', expiresAt: 61_000 });
    tick(500);
    expect(b.decide(requested[0]!.id, 'allow-once', 'tray')).toBe(true);
    expect(await answer).toMatchObject({ allowed: true });
    expect(resolved).toEqual([{ id: requested[0]!.id, runId: 'run-1', server: 'effects', tool: 'delete_item', argsHash: callKey('effects', 'delete_item', call.args), decision: 'allow-once', by: 'tray', at: 1_500 }]);
  });

  it('binds the hash to the call, not to key order', () => {
    expect(callKey('s', 't', { a: 1, b: { c: 2, d: 3 } })).toBe(callKey('s', 't', { b: { d: 3, c: 2 }, a: 1 }));
    expect(callKey('s', 't', { a: 1 })).not.toBe(callKey('s', 't', { a: 2 }));
    expect(callKey('s', 't', { a: 1 })).not.toBe(callKey('s', 'u', { a: 1 }));
  });

  it('reports a refusal made without a question as a deny by whoever refused', () => {
    const { b, requested, resolved } = broker();
    const outcome = b.refused(call, 'policy');
    expect(requested).toEqual([]);
    expect(b.list()).toEqual([]);
    expect(resolved).toEqual([outcome]);
    expect(outcome).toMatchObject({ runId: 'run-1', server: 'effects', tool: 'delete_item', decision: 'deny', by: 'policy', at: 1_000, argsHash: callKey('effects', 'delete_item', call.args) });
    expect(outcome.id).toMatch(/^[0-9a-f]{12}$/);
  });
});
