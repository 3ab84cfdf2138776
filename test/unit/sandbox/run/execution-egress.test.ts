// A run's egress frames on the host, over a fake container (streams standing in for the agent): with egress
// on they become streams of the run's gateway and the host's bytes go back as frames; the start frame tells
// the agent; the result carries the records; a malformed frame ends the run as protocol abuse; with egress
// off a sandbox sending such frames is only counted, and ends as abuse past the start-up frame budget.
import { PassThrough, type Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runInContainer, type RunSpec } from '../../../../electron/sandbox/run/execution.js';
import type { RunEgress } from '../../../../electron/sandbox/run/egress-tunnel.js';
import { SandboxContainer } from '../../../../electron/sandbox/run/sandbox-container.js';
import type { ProcessExit } from '../../../../electron/sandbox/run/attached-process.js';

function fakeContainer() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let exit!: (e: ProcessExit) => void;
  const exited = new Promise<ProcessExit>((r) => (exit = r));
  const container = new SandboxContainer('sandbar-test', { pid: 1, stdin, stdout, stderr, exited, kill: () => exit({ exitCode: 137, signal: 'SIGKILL' }) }, '{}\n', 1024 * 1024);
  const toHost: Record<string, unknown>[] = [];
  let pending = '';
  stdin.setEncoding('utf8');
  stdin.on('data', (chunk: string) => {
    pending += chunk;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.startsWith('{"type"')) toHost.push(JSON.parse(line) as Record<string, unknown>);
    }
  });
  return { container, frame: (f: object) => stdout.write(`${JSON.stringify(f)}\n`), toHost, exit };
}

const spec = (extra: Partial<RunSpec>): RunSpec => ({ executionId: 'r1', code: 'pass', context: {}, timeoutSec: 30, outputCapBytes: 1 << 20, memory: '512m', kill: async () => {}, ...extra });
const tick = () => new Promise((r) => setTimeout(r, 20));

function fakeEgress() {
  const accepted: Duplex[] = [];
  let closed = 0;
  const egress: RunEgress = {
    gateway: { accept: (s) => void accepted.push(s), close: () => void (closed += 1) },
    limits: { maxFrames: 100 },
    agent: { caPem: 'CA', placeholders: { KEY: 'sandbar-secret-placeholder-KEY' } },
    records: () => ({ egress: [{ host: 'h', port: 1, decision: 'allowed', bytesOut: 2, bytesIn: 3 }], egressDropped: 0 }),
  };
  return { egress, accepted, closed: () => closed };
}

describe('egress frames in a run', () => {
  it('carry a connection both ways, tell the agent at start, and leave the records in the result', async () => {
    const c = fakeContainer();
    const e = fakeEgress();
    const done = runInContainer(c.container, spec({ egress: e.egress }));
    await tick();
    expect(c.toHost[0]).toMatchObject({ type: 'start', egress: { caPem: 'CA', placeholders: { KEY: 'sandbar-secret-placeholder-KEY' } } });
    c.frame({ type: 'egress_open', id: 1 });
    c.frame({ type: 'egress_data', id: 1, data: Buffer.from('GET / HTTP/1.1\r\n\r\n').toString('base64') });
    await tick();
    expect(e.accepted).toHaveLength(1);
    expect(String(e.accepted[0]!.read())).toBe('GET / HTTP/1.1\r\n\r\n');
    e.accepted[0]!.write('HTTP/1.1 200 OK\r\n\r\n');
    await tick();
    // What the proxy took is acknowledged, so the agent may send that much more (its window).
    expect(c.toHost.filter((f) => f.type === 'egress_ack')).toEqual([{ type: 'egress_ack', id: 1, bytes: 18 }]);
    expect(c.toHost.find((f) => f.type === 'egress_data')).toEqual({ type: 'egress_data', id: 1, data: Buffer.from('HTTP/1.1 200 OK\r\n\r\n').toString('base64') });
    c.frame({ type: 'exit', code: 0 });
    const outcome = await done;
    expect(outcome.exitReason).toBe('success');
    expect(outcome.egress).toEqual([{ host: 'h', port: 1, decision: 'allowed', bytesOut: 2, bytesIn: 3 }]);
    expect(outcome.egressDropped).toBe(0);
    expect(e.closed()).toBe(1);
    expect(e.accepted[0]!.destroyed).toBe(true);
  });

  it('ends the run as protocol abuse on a malformed egress frame', async () => {
    const c = fakeContainer();
    const done = runInContainer(c.container, spec({ egress: fakeEgress().egress, kill: async () => c.exit({ exitCode: 137, signal: 'SIGKILL' }) }));
    await tick();
    c.frame({ type: 'egress_open', id: -4 });
    const outcome = await done;
    expect(outcome.exitReason).toBe('protocol_abuse');
    expect(outcome.message).toContain('egress frame without a valid connection id');
  });

  it('without egress: frames are only counted, and a sandbox that keeps sending them ends as abuse', async () => {
    const c = fakeContainer();
    const done = runInContainer(c.container, spec({ kill: async () => c.exit({ exitCode: 137, signal: 'SIGKILL' }) }));
    await tick();
    expect(c.toHost[0]).not.toHaveProperty('egress');
    for (let id = 1; id <= 40; id++) c.frame({ type: 'egress_open', id });
    const outcome = await done;
    expect(outcome.exitReason).toBe('protocol_abuse');
    expect(outcome).not.toHaveProperty('egress');
  });
});
