// The run use case end to end on the fake backend (real engine, frame protocol, broker): a plain run, the
// servers a run names, its approval channel, and every refusal a surface shares, each before anything ran.
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../shared/execution.js';
import { RunRefused } from '../../../electron/runs/run-refusal.js';
import { ALICE, runFixture } from './run-fixture.js';

let fixture: Awaited<ReturnType<typeof runFixture>>;
afterEach(() => fixture?.dispose());

const refusalOf = async (promise: Promise<unknown>) => {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(RunRefused);
  return err as RunRefused;
};

describe('RunService.start', () => {
  it('runs code through the engine and records who asked', async () => {
    fixture = await runFixture();
    const events: EngineEvent[] = [];
    fixture.engine.subscribe((e) => events.push(e));
    const ticket = await fixture.runs.start({ code: 'print hello\neprint careful' }, ALICE);
    const { execution, session } = await ticket.result;
    expect(execution).toMatchObject({ id: ticket.id, exitReason: 'success', stdout: 'hello\n', stderr: 'careful\n' });
    expect(session).toBeUndefined();
    expect(ticket.session).toBeUndefined();
    const queued = events.find((e) => e.type === 'queued');
    expect(queued?.type === 'queued' && queued.execution.client).toEqual(ALICE.client);
  });

  it('prepares the servers a run names once each, hands them to the sandbox, and answers its calls for them alone', async () => {
    fixture = await runFixture();
    const ticket = await fixture.runs.start({ code: 'servers\ncall weather now {"city": "Oslo"}\ncall other now {}', servers: ['weather', 'weather'] }, ALICE);
    const { execution } = await ticket.result;
    expect(fixture.servers.prepared).toEqual([['weather']]);
    expect(execution.stdout.split('\n')).toEqual(['weather', '{"result":{"content":[{"type":"text","text":"now from weather"}]}}', "MCPError: Server 'other' is not available", '']);
    expect(fixture.servers.calls).toEqual([{ runId: ticket.id, server: 'weather', tool: 'now', args: { city: 'Oslo' } }]);
  });

  it('refuses unknown and denied servers before preparing anything', async () => {
    fixture = await runFixture();
    expect((await refusalOf(fixture.runs.start({ code: 'print x', servers: ['nope'] }, ALICE))).message).toBe('Unknown MCP server: nope');
    const denied = await refusalOf(fixture.runs.start({ code: 'print x', servers: ['weather', 'mail'] }, ALICE));
    expect(denied.message).toMatch(/'mail' is denied in Sandbar/);
    expect(denied.kind).toBe('refused');
    expect(fixture.servers.prepared).toEqual([]);
    expect(fixture.engine.snapshot().queued).toEqual([]);
  });

  it('refuses code past maxCodeBytes as a validation refusal, in the words MCP uses', async () => {
    fixture = await runFixture({ maxCodeBytes: 1024 });
    const big = await refusalOf(fixture.runs.start({ code: `print ${'x'.repeat(3000)}` }, ALICE));
    expect(big.kind).toBe('validation');
    expect(big.message).toBe('Code is 3 KiB; the limit is 1 KiB. Send a shorter script.');
  });

  it('asks the caller (its hook) about a guarded call, and forgets the channel once the run ends', async () => {
    fixture = await runFixture();
    const asked: string[] = [];
    const ticket = await fixture.runs.start({ code: 'call weather guarded {}', servers: ['weather'] }, ALICE, {
      ask: async (approval) => {
        asked.push(`${approval.server}/${approval.tool}`);
        expect(fixture.runs.pendingApproval(ticket.id)?.id).toBe(approval.id);
        return 'allow-once';
      },
    });
    const { execution } = await ticket.result;
    expect(asked).toEqual(['weather/guarded']);
    expect(execution.stdout).toContain('guarded from weather');
    expect(fixture.runs.channelsFor(ticket.id)).toEqual([]);
  });

  it('a caller that says no denies the call, and the code sees the refusal', async () => {
    fixture = await runFixture();
    const ticket = await fixture.runs.start({ code: 'call weather guarded {}', servers: ['weather'] }, ALICE, { ask: async () => 'deny' });
    expect((await ticket.result).execution.stdout).toBe('MCPError: weather/guarded was denied\n');
    expect(fixture.servers.calls).toEqual([]);
  });

  it('turns a run away in the engine\'s words while paused, without starting its servers or packages', async () => {
    fixture = await runFixture();
    fixture.engine.setPaused(true);
    const ticket = await fixture.runs.start({ code: 'print x', servers: ['weather'], packages: ['numpy'] }, ALICE);
    const { execution } = await ticket.result;
    expect(execution.exitReason).toBe('runtime_error');
    expect(execution.message).toMatch(/Sandbar is paused/);
    expect(fixture.servers.prepared).toEqual([]);
    expect(fixture.packageCalls).toEqual([]);
  });

  it('cancels through the caller\'s signal', async () => {
    fixture = await runFixture();
    const abort = new AbortController();
    const ticket = await fixture.runs.start({ code: 'wait\nprint never' }, ALICE, { signal: abort.signal });
    await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    const { execution } = await ticket.result;
    expect(execution.exitReason).toBe('cancelled');
    expect(execution.stdout).toBe('');
  });

  it('refuses with the reason when a server cannot be prepared', async () => {
    fixture = await runFixture();
    fixture.servers.catalog.prepare = () => Promise.reject(new Error("Server 'weather' did not start: exited with code 1"));
    const refused = await refusalOf(fixture.runs.start({ code: 'print x', servers: ['weather'], session: 'new' }, ALICE));
    expect(refused.message).toBe("Server 'weather' did not start: exited with code 1");
    // The session the call would have opened leaves no trace.
    expect(fixture.sessions?.list()).toEqual([]);
  });
});
