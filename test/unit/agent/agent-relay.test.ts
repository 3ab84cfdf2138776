// The agent's relay on the host's Python: output written before a crash is forwarded with an exit frame that
// names the crash, each call's output is cut at its cap and counted, a runaway print is stopped, and a host
// call the code stopped waiting for keeps its slot until the host answers it.
import { describe, expect, it } from 'vitest';
import { agentBootModules } from '../../../electron/sandbox/agent/bootstrap.js';
import { Agent, run, SUITE, WAIT_MS, type Frame } from './agent-harness.js';

const MiB = 1024 * 1024;
const output = (capBytes: number, stopAfterBytes = 16 * capBytes) => ({ output: { capBytes, stopAfterBytes } });
const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');
const cuts = (frames: Frame[]) => frames.filter((f) => f.type === 'output_cut');

const CRASHES = [
  ['a segfault (ctypes)', 'import ctypes\nctypes.string_at(0)', { code: 139, abrupt: 'SIGSEGV' }, { code: null, signal: 'SIGSEGV' }],
  ['abort()', 'import os\nos.abort()', { code: 134, abrupt: 'SIGABRT' }, { code: null, signal: 'SIGABRT' }],
  ['os._exit(3)', 'import os\nos._exit(3)', { code: 3, abrupt: 'exit' }, { code: 3, signal: null }],
] as const;

describe.concurrent('crashes', SUITE, () => {
  for (const [label, crash, exit, process] of CRASHES) {
    it(`forwards what was printed before ${label}, then an exit frame naming it, and ends the same way (5 times)`, async () => {
      const runs = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          run(`import sys\nprint("out ${i}", flush=True)\nprint("err ${i}", file=sys.stderr, flush=True)\n${crash}`),
        ),
      );
      runs.forEach((r, i) => {
        expect(r.stdout).toBe(`out ${i}\n`);
        expect(r.stderr).toBe(`err ${i}\n`);
        expect(r.exitFrames).toEqual([{ type: 'exit', ...exit }]);
        expect(r.frames.at(-1)).toEqual({ type: 'exit', ...exit });
        expect(r.process).toEqual(process);
        expect(r.rawStderr).toBe('');
      });
    });
  }

  it('says os._exit(0) left abruptly too, with code 0', async () => {
    const r = await run('print("done", flush=True)\nimport os\nos._exit(0)');
    expect(r.stdout).toBe('done\n');
    expect(r.exitFrames).toEqual([{ type: 'exit', code: 0, abrupt: 'exit' }]);
  });

  it('keeps output a background child still writes out of the crash frame, and does not wait for it', async () => {
    const r = await run('import subprocess, ctypes\nsubprocess.Popen(["sleep", "30"])\nprint("x", flush=True)\nctypes.string_at(0)', { timeoutMs: 20_000 });
    expect(r.stdout).toBe('x\n');
    expect(r.exitFrames).toEqual([{ type: 'exit', code: 139, abrupt: 'SIGSEGV' }]);
    expect(r.elapsedMs).toBeLessThan(10_000); // about the 0.5 s drain bound plus start-up
  });

  it('says nothing more when the host closed stdin (nobody reads an exit frame)', async () => {
    const agent = new Agent();
    await agent.waitFor((f) => f.type === 'ready');
    agent.send({ type: 'start', code: 'import time\nprint("up", flush=True)\ntime.sleep(30)', context: {} });
    await agent.waitFor((f) => f.type === 'stdout');
    agent.closeStdin();
    expect((await agent.exited).code).toBe(1);
    expect(agent.frames.filter((f) => f.type === 'exit')).toEqual([]);
  });
});

describe.concurrent('output within the cap', SUITE, () => {
  it('sends a print under the cap whole and says nothing of a cut', async () => {
    const r = await run("print('a' * 900_000)", { start: output(MiB) });
    expect(r.stdout).toBe(`${'a'.repeat(900_000)}\n`);
    expect(cuts(r.frames)).toEqual([]);
  });

  it('sends exactly the first capBytes of a larger print, in order, and counts all of it', async () => {
    const r = await run("import sys\nsys.stdout.write(''.join(chr(48 + i % 10) for i in range(3_000_000)))", { start: output(MiB) });
    const expected = Array.from({ length: MiB }, (_, i) => String.fromCharCode(48 + (i % 10))).join('');
    expect(r.stdout).toBe(expected);
    expect(r.code).toBe(0);
    // One when the cut happens, one at the end with the whole count, both before the exit frame.
    expect(cuts(r.frames).at(-1)).toEqual({ type: 'output_cut', stream: 'stdout', printed: 3_000_000 });
    expect(r.frames.findIndex((f) => f.type === 'output_cut')).toBeLessThan(r.frames.findIndex((f) => f.type === 'exit'));
  });

  it('never splits a character at the cut', async () => {
    const r = await run("print('€' * 10_000)", { start: output(1024 + 1) });
    expect(utf8(r.stdout)).toBe(1023); // 341 whole euro signs; the 342nd would pass 1025 bytes
    expect(r.stdout).toBe('€'.repeat(341));
  });

  it('cuts stdout and stderr each at the cap, independently', async () => {
    const r = await run("import sys\nsys.stdout.write('o' * 5000)\nsys.stderr.write('e' * 3000)", { start: output(2048) });
    expect(r.stdout).toBe('o'.repeat(2048));
    expect(r.stderr).toBe('e'.repeat(2048));
    const last = (stream: string) => cuts(r.frames).filter((f) => f.stream === stream).at(-1)?.printed;
    expect([last('stdout'), last('stderr')]).toEqual([5000, 3000]);
  });

  it('stops a call that goes on printing past stopAfterBytes, in the sandbox, with the first capBytes sent', async () => {
    const r = await run('import sys\nwhile True:\n    sys.stdout.write("y" * 65536)', { start: output(64 * 1024, MiB) });
    expect(r.stdout).toBe('y'.repeat(64 * 1024));
    expect(r.exitFrames).toEqual([{ type: 'exit', code: 137, stopped: 'stdout' }]);
    expect(Number(cuts(r.frames).at(-1)?.printed)).toBeGreaterThan(MiB);
    expect(r.process.signal).toBe('SIGKILL');
  });

  it("starts each session call's cut and count afresh", async () => {
    const agent = new Agent({ modules: agentBootModules() });
    await agent.waitFor((f) => f.type === 'ready');
    agent.send({ type: 'start', code: "print('z' * 5000)", context: {}, session: true, ...output(1024) });
    await agent.waitFor((f) => f.type === 'exit');
    const first = agent.frames.length;
    agent.send({ type: 'start', code: "print('short')", context: {}, session: true, ...output(1024) });
    await agent.waitFor((f) => f.type === 'exit' && agent.frames.indexOf(f) >= first);
    const second = agent.frames.slice(first);
    expect(cuts(agent.frames.slice(0, first)).at(-1)).toMatchObject({ stream: 'stdout', printed: 5001 });
    expect(second.filter((f) => f.type === 'stdout').map((f) => f.data).join('')).toBe('short\n');
    expect(cuts(second)).toEqual([]);
    agent.kill();
  });
});

describe.concurrent('host calls the code gave up on', SUITE, () => {
  it('keep their slot until the host answers them, so the agent never passes the host in-flight bound', async () => {
    const agent = new Agent();
    await agent.waitFor((f) => f.type === 'ready');
    const code = `import asyncio, _sandbar
for n in range(2):
    try:
        await asyncio.wait_for(_sandbar.rpc({"n": n}), 0.05)
    except asyncio.TimeoutError:
        print("gave up", n, flush=True)
print((await _sandbar.rpc({"n": 2}))["n"])`;
    agent.send({ type: 'start', code, context: {}, rpcLimits: [2, 8 * MiB] });
    await agent.waitFor((f) => f.type === 'stdout' && String(f.data).includes('gave up 1'));
    // Both slots are still taken: the third call waits in the sandbox instead of reaching the host.
    await new Promise((r) => setTimeout(r, 500));
    expect(agent.frames.filter((f) => f.type === 'rpc_request').map((f) => (f.payload as { n: number }).n)).toEqual([0, 1]);
    agent.send({ type: 'rpc_response', id: 1, success: true, payload: { late: true } });
    const third = await agent.waitFor((f) => f.type === 'rpc_request' && (f.payload as { n: number }).n === 2, WAIT_MS);
    agent.send({ type: 'rpc_response', id: third.id, success: true, payload: { n: 'third answered' } });
    await agent.waitFor((f) => f.type === 'exit');
    expect(agent.stream('stdout')).toBe('gave up 0\ngave up 1\nthird answered\n');
  });
});
