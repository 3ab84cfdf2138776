// The broker's record of each question: what it shows (the code line among it), and the outcome it reports
// for history, bound to the hash of the call; refusals without a question are reported the same way.
import { describe, expect, it } from 'vitest';
import { ApprovalBroker, callKey, MAX_RECORDED_REFUSALS_PER_RUN } from '../../../electron/proxy/approval-broker.js';
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

describe('ApprovalBroker bounds per run', () => {
  const flush = () => new Promise((r) => setTimeout(r, 0));

  it('merges an identical call waiting into the open question: one question, one answer for both', async () => {
    const { b, requested, resolved } = broker();
    const first = b.request(call);
    const second = b.request({ ...call, args: { force: true, name: 'a' } }); // same call, other key order
    expect(b.list()).toHaveLength(1);
    expect(b.list()[0]!.calls).toBe(2);
    expect(requested.map((r) => r.id)).toEqual([requested[0]!.id, requested[0]!.id]);
    b.decide(requested[0]!.id, 'deny', 'panel');
    expect(await first).toMatchObject({ allowed: false, why: 'answer' });
    expect(await second).toMatchObject({ allowed: false, why: 'answer' });
    expect(resolved).toHaveLength(1);
    // Another run's identical call is its own question.
    void b.request({ ...call, runId: 'run-2' });
    expect(b.list()).toHaveLength(1);
    expect(b.list()[0]!.runId).toBe('run-2');
  });

  it('after a deny or no answer, the same call is denied for the rest of the run without asking', async () => {
    const { b, requested } = broker();
    const asked = b.request(call);
    b.decide(requested[0]!.id, 'deny', 'cli');
    await asked;
    expect(b.withoutAsking(call)).toEqual({ allowed: false, outcome: null, why: 'denied-in-run' });
    expect(await b.request(call)).toEqual({ allowed: false, outcome: null, why: 'denied-in-run' });
    expect(requested).toHaveLength(1);
    // Other arguments are another call: asked.
    void b.request({ ...call, args: { name: 'b' } });
    expect(requested).toHaveLength(2);
    // The run ended: a new run starts with nothing remembered.
    b.endRun('run-1');
    expect(b.withoutAsking(call)).toBeNull();
  });

  it('an unanswered question is remembered like a deny', async () => {
    const requested: PendingApproval[] = [];
    const b = new ApprovalBroker({ timeoutMs: () => 5, onRequested: (a) => requested.push(a), allowAlways: () => {} });
    expect(await b.request(call)).toMatchObject({ allowed: false, outcome: { decision: 'timeout', by: 'deadline' } });
    expect(b.withoutAsking(call)).toMatchObject({ why: 'denied-in-run' });
  });

  it('allow-run is remembered the same way, for allowing', async () => {
    const { b, requested } = broker();
    const asked = b.request(call);
    b.decide(requested[0]!.id, 'allow-run', 'panel');
    expect(await asked).toMatchObject({ allowed: true });
    expect(await b.request(call)).toEqual({ allowed: true, outcome: null, why: 'allowed-in-run' });
  });

  it('caps the questions of one run: past it, calls are denied without asking and the refusal is recorded', async () => {
    const requested: PendingApproval[] = [];
    const resolved: ApprovalOutcome[] = [];
    const b = new ApprovalBroker({ timeoutMs: () => 60_000, onRequested: (a) => requested.push(a), onResolved: (o) => resolved.push(o), allowAlways: () => {}, maxQuestionsPerRun: 3 });
    expect(b.maxQuestionsPerRun).toBe(3);
    for (let i = 0; i < 3; i++) {
      const asked = b.request({ ...call, args: { name: String(i) } });
      b.decide(requested.at(-1)!.id, 'allow-once', 'panel');
      await asked;
    }
    const past = await b.request({ ...call, args: { name: 'x' } });
    expect(past).toMatchObject({ allowed: false, why: 'question-cap', outcome: { decision: 'deny', by: 'question cap' } });
    expect(requested).toHaveLength(3);
    expect(resolved.at(-1)).toMatchObject({ by: 'question cap' });
    // Another run still asks.
    void b.request({ ...call, runId: 'run-2' });
    expect(requested).toHaveLength(4);
  });

  it('records at most MAX_RECORDED_REFUSALS_PER_RUN refusals of one run (a loop cannot grow history)', () => {
    const { b, resolved } = broker();
    for (let i = 0; i < MAX_RECORDED_REFUSALS_PER_RUN + 25; i++) b.refused(call, 'policy');
    expect(resolved).toHaveLength(MAX_RECORDED_REFUSALS_PER_RUN);
  });

  it('a question expires by `until` when the run would end first', () => {
    const { b, requested } = broker();
    void b.request(call, { until: 4_000 });
    expect(requested[0]!.expiresAt).toBe(4_000);
  });

  it('a request of a run already ended asks nothing and keeps nothing', async () => {
    const { b, requested } = broker();
    const ended = new AbortController();
    ended.abort();
    expect(await b.request(call, { signal: ended.signal })).toEqual({ allowed: false, outcome: null, why: 'run-ended' });
    expect(requested).toEqual([]);
    expect(b.withoutAsking(call)).toBeNull();
  });

  it('a merged caller whose run ends leaves; the question stays for the others', async () => {
    const { b, requested } = broker();
    const ends = new AbortController();
    const first = b.request(call);
    const second = b.request(call, { signal: ends.signal });
    ends.abort();
    expect(await second).toMatchObject({ allowed: false, why: 'run-ended' });
    await flush();
    b.decide(requested[0]!.id, 'allow-once', 'panel');
    expect(await first).toMatchObject({ allowed: true });
  });
});
