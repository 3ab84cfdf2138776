// Stateful sessions over MCP with real containers: state kept, the sandbox paused between calls, clocks,
// the cap, ends by timeout, memory and code, ids bound to their caller, and restarts.
import { execFileSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/sandbox/engine.js';
import { createMcpServer } from '../../../electron/mcp/server-factory.js';
import { engineSandboxes } from '../../../electron/sessions/engine-sandboxes.js';
import { SessionJournal } from '../../../electron/sessions/session-journal.js';
import { SessionRegistry, type SessionPolicy } from '../../../electron/sessions/session-registry.js';
import { runtimeBinary, sandbox, startEngine, underGvisor, waitFor } from '../helpers.js';
import { httpFixture, serverDeps, tempHome, type HttpFixture } from './mcp-helpers.js';

type Result = CallToolResult & { structuredContent?: Record<string, unknown> };

const textOf = (r: Result) => (r.content[0] as { text: string }).text;
const idOf = (r: Result) => /^session: ([0-9a-f]{32})$/m.exec(textOf(r))?.[1] ?? '';

/** A container's status as the runtime records it, or null once it is gone. */
function inspect(name: string): { status: string; id: string; ociRuntime: string } | null {
  try {
    const out = execFileSync(runtimeBinary(), ['inspect', '--format', '{{.State.Status}} {{.Id}} {{.OCIRuntime}}', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const [status, id, ociRuntime] = out.trim().split(' ');
    return { status: status!, id: id!, ociRuntime: ociRuntime ?? '' };
  } catch {
    return null;
  }
}

/**
 * Frozen by the runtime: `podman inspect` says paused, or (when Sandbar froze it through the OCI runtime's
 * freezer, as it does on Podman with runc or crun) the OCI runtime's own `state` says paused.
 */
function frozen(name: string): boolean {
  const seen = inspect(name);
  if (!seen) return false;
  if (seen.status === 'paused') return true;
  if (!['runc', 'crun'].includes(seen.ociRuntime)) return false;
  try {
    return (JSON.parse(execFileSync(seen.ociRuntime, ['state', seen.id], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { status: string }).status === 'paused';
  } catch {
    return false;
  }
}

describe.skipIf(!sandbox.available)('run_python sessions', { timeout: 120_000 }, () => {
  let engine: Engine;
  let registry: SessionRegistry;
  let policy: SessionPolicy;
  let home: string;
  const clients: Client[] = [];
  const fixtures: HttpFixture[] = [];

  beforeEach(async () => {
    engine = await startEngine({ poolSize: 1, sessionMaxSec: 3600 });
    policy = { idleSec: 600, maxSec: 3600, maxSessions: 2, checkpoints: 5 };
    home = tempHome();
    registry = new SessionRegistry(engineSandboxes(engine), () => policy, { journal: new SessionJournal(home), memoryLimit: () => engine.currentConfig.limits.memory });
    registry.start();
  });

  afterEach(async () => {
    await Promise.allSettled([...clients.splice(0).map((c) => c.close()), ...fixtures.splice(0).map((f) => f.close())]);
    registry.dispose();
    await engine.dispose();
  });

  /** A connection of its own (an MCP server per connection, like one stdio client each). */
  async function connection(name = 'vitest-a'): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(serverDeps(engine, 'stdio', {}, { sessions: registry })).connect(serverSide);
    const client = new SdkClient({ name, version: '1.0.0' });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  }

  const call = async (client: Client, args: Record<string, unknown>) => (await client.callTool({ name: 'run_python', arguments: args })) as Result;

  it('keeps variables and /workspace between calls, pauses the sandbox in between, and a plain run sees none of it', async () => {
    const a = await connection();
    const first = await call(a, { code: 'x = 41\nopen("/workspace/kept.txt", "w").write("in the session")\nprint("opened")', session: 'new' });
    expect(first.isError).toBe(false);
    const id = idOf(first);
    expect(textOf(first).split('\n')).toEqual([`session: ${id}`, 'opened']);
    // gVisor refuses the subreaper checkpoints need: none there.
    expect(first.structuredContent?.session).toEqual({ id, calls: 1, idleExpiresInSec: 600, checkpoints: underGvisor ? [] : [1] });

    const [info] = registry.list();
    expect(info).toMatchObject({ id, calls: 1, busy: false, client: { name: 'vitest-a' } });
    expect(await waitFor(() => frozen(info!.containerName!), 10_000)).toBe(true);

    const second = await call(a, { code: 'x += 1\nprint(x, open("/workspace/kept.txt").read())', session: id });
    expect(textOf(second).split('\n')).toEqual([`session: ${id}`, '42 in the session']);
    expect((second.structuredContent?.session as { calls: number }).calls).toBe(2);

    const plain = await call(a, { code: 'import os\nprint(os.path.exists("/workspace/kept.txt"), "x" in globals())' });
    expect(textOf(plain)).toBe('False False');
    expect(plain.structuredContent?.session).toBeUndefined();
  });

  it('freezes background threads while idle: a 10 ms ticker advances fewer than 5 ticks in 1 s between calls', async () => {
    const a = await connection();
    const opened = await call(a, {
      code: 'import threading, time\nticks = []\ndef tick():\n    while True:\n        ticks.append(time.monotonic()); time.sleep(0.01)\nthreading.Thread(target=tick, daemon=True).start()\ntime.sleep(0.2)\nprint(len(ticks) > 5)',
      session: 'new',
    });
    expect(textOf(opened)).toContain('True');
    const id = idOf(opened);
    const name = registry.list()[0]!.containerName!;
    expect(await waitFor(() => frozen(name), 10_000)).toBe(true);
    // CLOCK_MONOTONIC is the host's and the container's alike (process.hrtime and time.monotonic read it).
    const from = Number(process.hrtime.bigint()) / 1e9;
    await new Promise((r) => setTimeout(r, 1000));
    const to = Number(process.hrtime.bigint()) / 1e9;
    const later = await call(a, { code: `print(sum(1 for t in ticks if ${from} < t < ${to}), len(ticks))`, session: id });
    const [idleTicks] = textOf(later).split('\n')[1]!.split(' ').map(Number);
    expect(idleTicks).toBeLessThan(5);
  });

  it('ends an idle session and removes its sandbox; the next call says it expired', async () => {
    policy = { ...policy, idleSec: 2 };
    const a = await connection();
    const opened = await call(a, { code: 'print(1)', session: 'new' });
    const id = idOf(opened);
    const name = registry.list()[0]!.containerName!;
    expect(await waitFor(() => registry.list().length === 0, 15_000)).toBe(true);
    expect(await waitFor(() => inspect(name) === null, 15_000)).toBe(true);
    const late = await call(a, { code: 'print(2)', session: id });
    expect(late.isError).toBe(true);
    expect(textOf(late)).toMatch(/session .*expired/);
    expect(textOf(late)).toContain('no call came for 2s');
  });

  it('refuses a session beyond maxSessions, listing only the caller’s own live ones', async () => {
    policy = { ...policy, maxSessions: 1 };
    const a = await connection('vitest-a');
    const b = await connection('vitest-b');
    const id = idOf(await call(a, { code: 'pass', session: 'new' }));
    const mine = await call(a, { code: 'pass', session: 'new' });
    expect(mine.isError).toBe(true);
    expect(textOf(mine)).toContain('session refused');
    expect(textOf(mine)).toContain(id);
    const theirs = await call(b, { code: 'pass', session: 'new' });
    expect(theirs.isError).toBe(true);
    expect(textOf(theirs)).toContain('1 belongs to other clients');
    expect(textOf(theirs)).not.toContain(id);
    expect(registry.list()).toHaveLength(1);
  });

  it('ends a session whose call times out, and says so on the next call', async () => {
    const a = await connection();
    const id = idOf(await call(a, { code: 'y = 1', session: 'new' }));
    const slow = await call(a, { code: 'import time\ntime.sleep(30)', session: id, timeout: 2 });
    expect(slow.isError).toBe(true);
    expect(textOf(slow).split('\n')[0]).toBe(`session: ${id}`);
    expect(textOf(slow)).toContain('timed out');
    const next = await call(a, { code: 'print(y)', session: id });
    expect(next.isError).toBe(true);
    expect(textOf(next)).toMatch(/session .*expired: its call 2 timed out/);
    expect(registry.list()).toHaveLength(0);
  });

  it('two 300 MB allocations in two calls under 512m: the second is killed with "memory limit 512m" and the session ends', async () => {
    expect(engine.currentConfig.limits.memory).toBe('512m');
    const a = await connection();
    const id = idOf(await call(a, { code: 'a = b"x" * (300 << 20)\nprint(len(a) >> 20)', session: 'new' }));
    const second = await call(a, { code: 'b = b"y" * (300 << 20)\nprint(len(b))', session: id });
    expect(second.isError).toBe(true);
    expect(textOf(second)).toContain('memory limit 512m');
    const next = await call(a, { code: 'print(len(a))', session: id });
    expect(next.isError).toBe(true);
    expect(textOf(next)).toMatch(/session .*expired: its call 2 was killed: memory limit 512m reached/);
  });

  it('runtime.end_session() ends the session after that call and removes the sandbox', async () => {
    const a = await connection();
    const id = idOf(await call(a, { code: 'z = 3', session: 'new' }));
    const name = registry.list()[0]!.containerName!;
    const last = await call(a, { code: 'print(z)\nruntime.end_session()', session: id });
    expect(last.isError).toBe(false);
    expect(textOf(last).split('\n')).toEqual([`session: ${id}`, 'session ended: the code ended it with runtime.end_session()', '3']);
    expect(await waitFor(() => inspect(name) === null, 15_000)).toBe(true);
    const after = await call(a, { code: 'print(z)', session: id });
    expect(textOf(after)).toMatch(/session .*expired: the code ended it/);
  });

  it('binds an id to the connection that opened it: from another connection it is unknown, and changes nothing', async () => {
    const a = await connection('vitest-a');
    const b = await connection('vitest-b');
    const id = idOf(await call(a, { code: 'secret = "only a"', session: 'new' }));
    const stolen = await call(b, { code: 'print(secret)', session: id });
    expect(stolen.isError).toBe(true);
    expect(textOf(stolen)).toContain(`session ${id} is unknown`);
    const own = await call(a, { code: 'print(secret)', session: id });
    expect(textOf(own)).toContain('only a');
    expect(registry.list()[0]!.calls).toBe(2);
  });

  it('over HTTP binds an id to the bearer credential, not the MCP session: a new MCP session with the token continues, another token cannot', async () => {
    let token = 'a'.repeat(64);
    const fixture = await httpFixture(engine, {}, { sessions: registry }, { token: () => token });
    fixtures.push(fixture);
    const connect = async () => {
      const client = new SdkClient({ name: 'vitest-http', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(fixture.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      clients.push(client);
      return client;
    };
    const first = await connect();
    const id = idOf(await call(first, { code: 'n = 7', session: 'new' }));
    const again = await connect(); // a second MCP session, same credential
    expect(textOf(await call(again, { code: 'print(n)', session: id }))).toContain('7');
    token = 'b'.repeat(64); // as after a rotation: another credential
    const other = await connect();
    const refused = await call(other, { code: 'print(n)', session: id });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(`session ${id} is unknown`);
  });

  it('calls malformed and never-opened ids unknown, and a non-string session a schema error', async () => {
    const a = await connection();
    for (const session of ['abc', 'NEW', '0'.repeat(32), `${'f'.repeat(31)}g`]) {
      const r = await call(a, { code: 'print(1)', session });
      expect(r.isError, session).toBe(true);
      expect(textOf(r), session).toMatch(/session.*unknown/);
    }
    const typed = await call(a, { code: 'print(1)', session: 5 });
    expect(typed.isError).toBe(true);
    expect(textOf(typed)).toBe("Input validation error: 5 is not of type 'string'");
    expect(registry.list()).toHaveLength(0);
  });

  it('after a restart an old id hears that Sandbar restarted (same credential), and sessions.list is empty', async () => {
    const fixture = await httpFixture(engine, {}, { sessions: registry });
    fixtures.push(fixture);
    const first = await fixture.client();
    const id = idOf(await call(first, { code: 'pass', session: 'new' }));
    // A new life: a registry over the same SANDBAR_HOME (the journal) takes the dead life's sessions.
    registry.dispose();
    registry = new SessionRegistry(engineSandboxes(engine), () => policy, { journal: new SessionJournal(home), memoryLimit: () => '512m' });
    registry.start();
    const restarted = await httpFixture(engine, {}, { sessions: registry }, { token: () => fixture.token });
    fixtures.push(restarted);
    const client = new SdkClient({ name: 'vitest-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(restarted.url), { requestInit: { headers: { Authorization: `Bearer ${fixture.token}` } } }));
    clients.push(client);
    const r = await call(client, { code: 'pass', session: id });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(`session ${id} expired: Sandbar restarted`);
    expect(registry.list()).toEqual([]);
  });
});
