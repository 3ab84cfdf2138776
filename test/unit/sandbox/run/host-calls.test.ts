// One run's host calls: answered within the gate, written through one outbox that waits for room in the
// container's stdin, and protocol abuse (never an answer) past the gate or past the stdin bound.
import { describe, expect, it } from 'vitest';
import { HostCalls } from '../../../../electron/sandbox/run/host-calls.js';
import type { SandboxContainer } from '../../../../electron/sandbox/run/sandbox-container.js';

/** A container whose stdin holds `backlog` bytes until told to drain. */
function fakeContainer() {
  const sent: Record<string, unknown>[] = [];
  let backlog = 0;
  let drained: () => void = () => {};
  const container = {
    sendJson(json: string) {
      const before = backlog;
      sent.push(JSON.parse(json) as Record<string, unknown>);
      return { bytes: json.length + 1, backlog: before, written: Promise.resolve() };
    },
    get stdinBacklog() {
      return backlog;
    },
    roomFor(limit: number) {
      return backlog <= limit ? Promise.resolve() : new Promise<void>((r) => (drained = r));
    },
  };
  return {
    container: container as unknown as SandboxContainer,
    sent,
    setBacklog: (n: number) => (backlog = n),
    drain: () => {
      backlog = 0;
      drained();
    },
  };
}

function calls(fake: ReturnType<typeof fakeContainer>, rpc: (p: Record<string, unknown>) => Promise<unknown>, limits = { maxInFlight: 2, maxBytes: 1000 }) {
  const abuses: string[] = [];
  let over = false;
  const hc = new HostCalls({
    container: fake.container,
    executionId: 'run-1',
    limits,
    rpc: (payload) => rpc(payload),
    signal: new AbortController().signal,
    deadline: () => Date.now() + 30_000,
    holdClock: () => () => {},
    over: () => over,
    abuse: (what) => {
      abuses.push(what);
      over = true;
    },
  });
  return { hc, abuses };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe('HostCalls', () => {
  it('answers calls, and ends the run as abuse (answering nothing more) when a call passes the gate', async () => {
    const fake = fakeContainer();
    const pending: (() => void)[] = [];
    const { hc, abuses } = calls(fake, () => new Promise((resolve) => pending.push(() => resolve({ ok: true }))));
    // Two run, two wait: the agent never has more in flight than the gate holds.
    for (let id = 1; id <= 4; id++) hc.submit(id, { n: id }, 10, undefined);
    expect(abuses).toEqual([]);
    hc.submit(5, { n: 5 }, 10, undefined);
    expect(abuses).toEqual(['it sent a host call past the in-flight budget (at most 2 calls and 1000 B waiting)']);
    for (const release of pending) release();
    await tick();
    expect(fake.sent).toEqual([]); // no refusal, and nothing after the end
  });

  it('holds answers in its outbox while the stdin holds more than the byte budget, then writes them in order', async () => {
    const fake = fakeContainer();
    const { hc, abuses } = calls(fake, async (p) => ({ echo: p.n }), { maxInFlight: 4, maxBytes: 1000 });
    fake.setBacklog(5000);
    hc.submit(1, { n: 1 }, 10, undefined);
    hc.submit(2, { n: 2 }, 10, undefined);
    await tick();
    expect(fake.sent).toEqual([]);
    fake.drain();
    await tick();
    expect(fake.sent.map((f) => (f.payload as { echo: number }).echo)).toEqual([1, 2]);
    expect(abuses).toEqual([]);
  });

  it('ends the run when its stdin holds more than twice the byte budget before a write', () => {
    const fake = fakeContainer();
    const { hc, abuses } = calls(fake, async () => ({}), { maxInFlight: 4, maxBytes: 1000 });
    fake.setBacklog(2001);
    void hc.send('{"type":"start"}');
    expect(abuses).toEqual(['it stopped reading what the host sends (over 2 KiB waiting in its stdin)']);
  });
});
