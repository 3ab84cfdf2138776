// The real agent on the host, speaking a session: several `start` frames in one process, globals and files
// kept, output and exit frames per call, and runtime.end_session().
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { agentBootModules, BOOTSTRAP_SOURCE, buildBootLine } from '../../../electron/sandbox/agent/bootstrap.js';

type Frame = { type: string } & Record<string, unknown>;

const WAIT_MS = 15_000;

/** One agent process; `call` sends a start frame and resolves with that call's frames up to its exit frame. */
function bootAgent() {
  const child = spawn('python3', ['-c', BOOTSTRAP_SOURCE], { stdio: ['pipe', 'pipe', 'pipe'] });
  const frames: Frame[] = [];
  let pending = '';
  let wake: () => void = () => {};
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      frames.push(JSON.parse(pending.slice(0, nl)) as Frame);
      pending = pending.slice(nl + 1);
    }
    wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => { wake(); resolve(code); }));
  child.stdin.on('error', () => {});
  child.stdin.write(buildBootLine({ modules: agentBootModules() }));
  const until = async (index: () => number) => {
    const deadline = Date.now() + WAIT_MS;
    while (index() === -1) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no frame; got ${JSON.stringify(frames).slice(0, 400)}`);
      await new Promise<void>((r) => { wake = r; setTimeout(r, 200); });
    }
    return index();
  };
  let consumed = 0;
  return {
    exited,
    kill: () => child.kill('SIGKILL'),
    ready: () => until(() => frames.findIndex((f) => f.type === 'ready')).then((i) => (consumed = i + 1)),
    async call(code: string, start: Record<string, unknown> = { session: true }) {
      const from = consumed;
      child.stdin.write(`${JSON.stringify({ type: 'start', code, context: {}, ...start })}\n`);
      const end = await until(() => { const i = frames.slice(from).findIndex((f) => f.type === 'exit'); return i === -1 ? -1 : from + i; });
      consumed = end + 1;
      const mine = frames.slice(from, end + 1);
      const text = (s: string) => mine.filter((f) => f.type === s).map((f) => f.data).join('');
      return { stdout: text('stdout'), stderr: text('stderr'), exit: mine.at(-1)! };
    },
  };
}

describe('agent sessions', { timeout: 40_000 }, () => {
  it('keeps globals, imports and /workspace-like files between calls, with output and an exit frame per call', async () => {
    const agent = bootAgent();
    try {
      await agent.ready();
      const dir = `/tmp/sandbar-agent-session-${process.pid}`;
      const first = await agent.call(`import os, threading\nx = 41\nos.makedirs(${JSON.stringify(dir)}, exist_ok=True)\nopen(${JSON.stringify(dir)} + '/f', 'w').write('kept')\nprint('one')`);
      expect(first).toMatchObject({ stdout: 'one\n', exit: { type: 'exit', code: 0, session: 'open' } });
      const second = await agent.call(`print(x + 1, open(${JSON.stringify(dir)} + '/f').read())\nraise ValueError('boom')`);
      expect(second.stdout).toBe('42 kept\n');
      expect(second.stderr).toContain('ValueError: boom');
      expect(second.exit).toMatchObject({ code: 1, session: 'open' });
      // An error does not end a session: the next call still sees the globals.
      const third = await agent.call(`import shutil\nshutil.rmtree(${JSON.stringify(dir)})\nprint(x)\nruntime.end_session()`);
      expect(third).toMatchObject({ stdout: '41\n', exit: { code: 0, session: 'ended' } });
      expect(await agent.exited).toBe(0);
    } finally {
      agent.kill();
    }
  });

  it('gives each call its own output: a background thread prints into the call that is running', async () => {
    const agent = bootAgent();
    try {
      await agent.ready();
      await agent.call('import threading, time\nev = threading.Event()\ndef tick():\n    while True:\n        ev.wait(); ev.clear(); print("tick")\nthreading.Thread(target=tick, daemon=True).start()');
      const second = await agent.call('ev.set(); time.sleep(0.3); print("after")');
      expect(second.stdout).toBe('tick\nafter\n');
      const third = await agent.call('print("quiet")');
      expect(third.stdout).toBe('quiet\n');
    } finally {
      agent.kill();
    }
  });

  it('scopes tools to the call: servers an earlier call loaded are gone, and host calls between calls fail at once', async () => {
    const agent = bootAgent();
    try {
      await agent.ready();
      const withServer = { session: true, context: { mcp: { loaded: [{ name: 'demo', description: 'd', cwd: null, tools: [{ name: 'echo' }] }], discovered: [{ name: 'demo' }] } } };
      const first = await agent.call(
        'import threading, time, asyncio, _sandbar\nprint("mcp_demo" in globals())\nlate = []\n' +
          'def later():\n    time.sleep(0.3)\n    try:\n        asyncio.run(_sandbar.rpc({"type": "list_servers"}))\n    except Exception as e:\n        late.append(str(e))\n' +
          'threading.Thread(target=later, daemon=True).start()',
        withServer,
      );
      expect(first.stdout).toBe('True\n');
      await new Promise((r) => setTimeout(r, 800)); // the thread tries its host call between the calls
      const second = await agent.call('print("mcp_demo" in globals(), "mcp_servers" in globals(), late)');
      expect(second.stdout).toBe("False True ['no call is running in this session: host calls are only served during a call']\n");
    } finally {
      agent.kill();
    }
  });

  it('stays single-use without `session`: the process ends after its one call, end_session() is harmless', async () => {
    const agent = bootAgent();
    try {
      await agent.ready();
      const only = await agent.call('runtime.end_session()\nprint("once")', {});
      expect(only.stdout).toBe('once\n');
      expect(only.exit).toEqual({ type: 'exit', code: 0 });
      expect(await agent.exited).toBe(0);
    } finally {
      agent.kill();
    }
  });
});
