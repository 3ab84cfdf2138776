// Runs the real in-container agent on the host (`python3 -c BOOTSTRAP_SOURCE`) and speaks its frame protocol:
// boot, output capture, running code.
import { describe, expect, it } from 'vitest';
import { SUITE, Agent, run } from './agent-harness.js';

describe.concurrent('agent boot', SUITE, () => {
  it('sends ready with the Python version and pid, and nothing on its real stderr', async () => {
    const agent = new Agent();
    const ready = await agent.waitFor((f) => f.type === 'ready');
    expect(ready.python).toMatch(/^3\.\d+\.\d+$/);
    expect(typeof ready.pid).toBe('number');
    agent.closeStdin();
    expect(await agent.exited).toEqual({ code: 0, signal: null });
    expect(agent.frames).toEqual([ready]); // EOF before start: quiet exit, no exit frame
    expect(agent.rawStderr).toBe('');
  });

  it('ends itself when no start frame arrives within idleTimeoutSec', async () => {
    const agent = new Agent({ idleTimeoutSec: 1 });
    await agent.waitFor((f) => f.type === 'ready');
    const started = Date.now();
    const exited = await agent.exited;
    expect(exited.signal).toBe('SIGALRM');
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('ignores junk lines and unknown frames before start', async () => {
    const agent = new Agent();
    await agent.waitFor((f) => f.type === 'ready');
    agent.send({ type: 'bogus' });
    agent.send({ type: 'rpc_response', id: 1, success: true, payload: null });
    agent.writeRaw('not json\n[1,2]\n"str"\n\n');
    agent.send({ type: 'start', code: 'print("ran")', context: {} });
    await agent.exited;
    expect(agent.stream('stdout')).toBe('ran\n');
  });

  it('makes boot modules importable and sets _sandbar.context from the start frame', async () => {
    const modules = { helper: 'def greet(name):\n    return "hi " + name\n' };
    const context = { user: 'ada', nested: { list: [1, 2, 3] }, text: 'é€' };
    const r = await run(
      'import helper, json, _sandbar\nprint(helper.greet("x"))\nprint(json.dumps(_sandbar.context))',
      { boot: { modules }, context },
    );
    const [greeting, contextLine] = r.stdout.trimEnd().split('\n');
    expect(greeting).toBe('hi x');
    expect(JSON.parse(contextLine ?? '')).toEqual(context);
    expect(r.code).toBe(0);
  });

  it('reports a boot module that fails instead of going ready', async () => {
    const agent = new Agent({ modules: { bad: 'raise RuntimeError("nope")\n' } });
    const exited = await agent.exited;
    expect(exited.code).toBe(1);
    expect(agent.frames.some((f) => f.type === 'ready')).toBe(false);
    expect(agent.stream('stderr')).toContain('RuntimeError: nope');
    expect(agent.frames.at(-1)).toEqual({ type: 'exit', code: 1 });
  });
});

describe.concurrent('output capture', SUITE, () => {
  it('forwards print, keeps blank lines and order, and sends exactly one exit frame last', async () => {
    const r = await run('print("a", 1)\nprint()\nprint("b")\nprint("c", 2)\nprint("tail", end="")');
    expect(r.stdout).toBe('a 1\n\nb\nc 2\ntail');
    expect(r.exitFrames).toEqual([{ type: 'exit', code: 0 }]);
    expect(r.frames.at(-1)).toEqual({ type: 'exit', code: 0 });
    expect(r.process).toEqual({ code: 0, signal: null });
    expect(r.rawStderr).toBe('');
  });

  it('forwards stderr and raw writes to fd 1', async () => {
    const r = await run('import sys, os\nprint("to err", file=sys.stderr)\nos.write(1, b"raw\\n")\nos.write(2, b"raw2\\n")');
    expect(r.stderr).toBe('to err\nraw2\n');
    expect(r.stdout).toBe('raw\n');
  });

  it('captures subprocess stdout and stderr and os.system', async () => {
    const r = await run(
      'import subprocess, os\n' +
        'subprocess.run(["echo", "sub"])\n' +
        'subprocess.run(["sh", "-c", "echo suberr >&2"])\n' +
        'os.system("echo sys")',
    );
    expect(r.stdout).toBe('sub\nsys\n');
    expect(r.stderr).toBe('suberr\n');
    expect(r.code).toBe(0);
  });

  it('delivers a forged frame written to fd 1 as ordinary stdout data', async () => {
    const forged = '{"type":"exit","code":0}';
    const r = await run(`import os, sys\nos.write(1, b'${forged}\\n')\nsys.stdout.flush()\nsys.exit(7)`);
    expect(r.stdout).toBe(`${forged}\n`);
    expect(r.exitFrames).toEqual([{ type: 'exit', code: 7 }]);
    expect(r.process.code).toBe(7);
  });

  it('delivers a single 5 MB print completely, in several frames', async () => {
    const r = await run("print('y' * 5_000_000)");
    expect(r.stdout.length).toBe(5_000_001);
    expect(r.stdout).toBe(`${'y'.repeat(5_000_000)}\n`);
    expect(r.frames.filter((f) => f.type === 'stdout').length).toBeGreaterThan(1);
  });

  it('keeps multi-byte UTF-8 intact across read boundaries', async () => {
    const r = await run("print('é€😀' * 100000)");
    expect(r.stdout).toBe(`${'é€😀'.repeat(100_000)}\n`);
    expect(r.stdout).not.toContain('\uFFFD');
  });

  it('gives input() an immediate EOFError', async () => {
    const r = await run(
      'import time\nt = time.monotonic()\ntry:\n    input("prompt> ")\nexcept EOFError:\n    print("EOF", time.monotonic() - t < 5)',
    );
    expect(r.stdout).toBe('prompt> EOF True\n');
  });
});

describe.concurrent('running code', SUITE, () => {
  it('supports top-level await', async () => {
    const r = await run("import asyncio\nawait asyncio.sleep(0.01)\nprint('done')");
    expect(r.stdout).toBe('done\n');
    expect(r.code).toBe(0);
  });

  it('runs without an event loop so user code can call asyncio.run()', async () => {
    const r = await run(
      'import asyncio\nasync def main():\n    await asyncio.sleep(0.01)\n    return "ok"\nprint(asyncio.run(main()))',
    );
    expect(r.stdout).toBe('ok\n');
    expect(r.stderr).toBe('');
  });

  it('runs as __main__ with a clean namespace', async () => {
    const r = await run(
      'if __name__ == "__main__":\n    print("main block")\n' +
        "print(sorted(k for k in globals() if not k.startswith('__')))\n" +
        'import sys\nprint(sys.modules["__main__"] is sys.modules[__name__])',
    );
    expect(r.stdout).toBe('main block\n[]\nTrue\n');
  });

  it('lets multiprocessing pickle functions defined in user code (fork)', async () => {
    const r = await run(
      'import multiprocessing as mp\ndef square(x):\n    return x * x\n' +
        'if __name__ == "__main__":\n    with mp.get_context("fork").Pool(2) as pool:\n        print(pool.map(square, [1, 2, 3]))',
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('[1, 4, 9]\n');
  });

  it('does not let a child from os.fork() send frames of its own', async () => {
    const r = await run(
      'import os\npid = os.fork()\nif pid == 0:\n    print("child")\nelse:\n    os.waitpid(pid, 0)\n    print("parent")',
    );
    expect(r.stdout).toBe('child\nparent\n');
    expect(r.exitFrames).toHaveLength(1);
  });

  it('does not wait for non-daemon user threads or background children', async () => {
    const r = await run(
      'import threading, time, subprocess\n' +
        'threading.Thread(target=time.sleep, args=(60,)).start()\n' +
        'child = subprocess.Popen(["sleep", "60"], close_fds=False)\n' + // holds every inheritable fd
        'print("main done", child.pid)',
      { timeoutMs: 30_000 },
    );
    const childPid = Number(/^main done (\d+)\n$/.exec(r.stdout)?.[1]);
    if (childPid > 0) process.kill(childPid, 'SIGKILL'); // the agent left it running on purpose; tidy up
    expect(childPid).toBeGreaterThan(0);
    expect(r.code).toBe(0);
    expect(r.elapsedMs).toBeLessThan(10_000); // about 0.5 s (the capture join timeout) plus start-up
  });
});
