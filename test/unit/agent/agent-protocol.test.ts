// Runs the real in-container agent on the host (`python3 -c BOOTSTRAP_SOURCE`) and speaks its frame protocol.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentBootModules } from '../../../electron/sandbox/agent/bootstrap.js';
import { Agent, echoRpc, run, SUITE, type Frame, type RunResult } from './agent-harness.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

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

describe.concurrent('errors and exit codes', SUITE, () => {
  it('prints a traceback that starts at user code', async () => {
    const r = await run("def f(): raise ValueError('boom')\nf()");
    expect(r.stderr).toMatch(/^Traceback \(most recent call last\):\n {2}File "<sandbox>", line 2, in <module>/);
    expect(r.stderr).toContain('File "<sandbox>", line 1, in f');
    expect(r.stderr).toContain("def f(): raise ValueError('boom')"); // source line from linecache
    expect(r.stderr).toContain('ValueError: boom');
    expect(r.stderr).not.toContain('sandbar-agent');
    expect(r.stderr).not.toContain('asyncio');
    expect(r.code).toBe(1);
    expect(r.process.code).toBe(1);
  });

  it('trims agent and asyncio frames under top-level await too', async () => {
    const r = await run("import asyncio\nawait asyncio.sleep(0)\nraise KeyError('k')");
    expect(r.stderr).toMatch(/^Traceback \(most recent call last\):\n {2}File "<sandbox>", line 3, in <module>/);
    expect(r.stderr).toContain("KeyError: 'k'");
    expect(r.stderr).not.toContain('sandbar-agent');
    expect(r.stderr).not.toContain('asyncio/');
  });

  it('reports a SyntaxError with <sandbox> and the line', async () => {
    const r = await run('x = 1\ndef broken(:\n    pass');
    expect(r.stderr).toContain('File "<sandbox>", line 2');
    expect(r.stderr).toContain('def broken(:');
    expect(r.stderr).toMatch(/SyntaxError: /);
    expect(r.stderr).not.toContain('sandbar-agent');
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
  });

  it.each([
    ['sys.exit()', 0],
    ['sys.exit(0)', 0],
    ['sys.exit(None)', 0],
    ['sys.exit(3)', 3],
    ['sys.exit(-1)', 255], // the OS keeps n & 0xFF
  ])('%s exits with %i', async (statement, expected) => {
    const r = await run(`import sys\nprint("before")\n${statement}\nprint("after")`);
    expect(r.stdout).toBe('before\n');
    expect(r.stderr).toBe('');
    expect(r.exitFrames).toEqual([{ type: 'exit', code: expected }]);
    expect(r.process.code).toBe(expected);
  });

  it('honours sys.exit() under top-level await', async () => {
    const r = await run('import asyncio, sys\nawait asyncio.sleep(0)\nsys.exit(4)');
    expect(r.stderr).toBe('');
    expect(r.exitFrames).toEqual([{ type: 'exit', code: 4 }]);
    expect(r.process.code).toBe(4);
  });

  it('sys.exit("msg") prints the message and exits 1', async () => {
    const r = await run('import sys\nsys.exit("bad things")');
    expect(r.stderr).toBe('bad things\n');
    expect(r.code).toBe(1);
    expect(r.process.code).toBe(1);
  });

  it('reports KeyboardInterrupt with a traceback and exit 1', async () => {
    const r = await run('raise KeyboardInterrupt');
    expect(r.stderr).toContain('File "<sandbox>", line 1');
    expect(r.stderr).toContain('KeyboardInterrupt');
    expect(r.code).toBe(1);
  });
});

describe.concurrent('rpc', SUITE, () => {
  it('round-trips a request under top-level await', async () => {
    const requests: Frame[] = [];
    const r = await run("import _sandbar\nr = await _sandbar.rpc({'x': 1})\nprint(r)", {
      onFrame: (frame, agent) => {
        if (frame.type === 'rpc_request') requests.push(frame);
        echoRpc(frame, agent);
      },
    });
    expect(requests).toEqual([{ type: 'rpc_request', id: 1, payload: { x: 1 } }]);
    expect(r.stdout).toBe("{'echo': {'x': 1}}\n");
    expect(r.code).toBe(0);
  });

  it("works inside the user's own asyncio.run()", async () => {
    const r = await run(
      'import asyncio, _sandbar\nasync def main():\n    return await _sandbar.rpc({"n": 2})\nprint(asyncio.run(main()))',
      { onFrame: echoRpc },
    );
    expect(r.stdout).toBe("{'echo': {'n': 2}}\n");
  });

  it('raises RpcError with the host error text', async () => {
    const r = await run(
      'import _sandbar\ntry:\n    await _sandbar.rpc({"q": 1})\nexcept _sandbar.RpcError as e:\n' +
        '    print(type(e).__name__, isinstance(e, RuntimeError), str(e))\n' +
        'await _sandbar.rpc({"q": 2})',
      {
        onFrame: (frame, agent) => {
          if (frame.type === 'rpc_request') {
            agent.send({ type: 'rpc_response', id: frame.id, success: false, error: 'tool exploded' });
          }
        },
      },
    );
    expect(r.stdout).toBe('RpcError True tool exploded\n');
    // Uncaught: traceback ends at the user's await, not inside the agent.
    expect(r.stderr).toContain('File "<sandbox>", line 6');
    expect(r.stderr).toContain('_sandbar.RpcError: tool exploded');
    expect(r.stderr).not.toContain('sandbar-agent');
    expect(r.stderr).not.toContain('asyncio');
    expect(r.code).toBe(1);
  });

  it('keeps concurrent calls in flight together and matches out-of-order answers by id', async () => {
    const requests: Frame[] = [];
    // The host answers nothing until all three requests are out: calls sent one at a time would never finish
    // (run() kills the agent after timeoutMs and the stdout assertion fails).
    const r = await run(
      'import asyncio, _sandbar\nrs = await asyncio.gather(*[_sandbar.rpc({"n": i}) for i in range(3)])\nprint(rs)',
      {
        onFrame: (frame, agent) => {
          if (frame.type !== 'rpc_request') return;
          requests.push(frame);
          if (requests.length < 3) return;
          for (const request of [...requests].reverse()) echoRpc(request, agent);
        },
      },
    );
    expect(requests.map((f) => f.id).sort()).toEqual([1, 2, 3]);
    expect(r.stdout).toBe("[{'echo': {'n': 0}}, {'echo': {'n': 1}}, {'echo': {'n': 2}}]\n");
  });

  it('receives a response larger than 1 MB intact', async () => {
    const blob = 'ab€😀\n'.repeat(300_000); // ~3.3 MB of UTF-8, with newlines inside the JSON string
    const r = await run(
      'import _sandbar, hashlib\nr = await _sandbar.rpc({})\n' +
        "print(len(r['blob']), hashlib.sha256(r['blob'].encode()).hexdigest())",
      {
        onFrame: (frame, agent) => {
          if (frame.type === 'rpc_request') {
            agent.send({ type: 'rpc_response', id: frame.id, success: true, payload: { blob } });
          }
        },
      },
    );
    expect(r.stdout).toBe(`${[...blob].length} ${sha256(blob)}\n`);
  });

  it('refuses a request bigger than maxFrameBytes without sending it', async () => {
    const r = await run(
      'import _sandbar\nprint(_sandbar.MAX_FRAME_BYTES)\ntry:\n    await _sandbar.rpc({"x": "a" * 5000})\n' +
        'except _sandbar.RpcError as e:\n    print("ERR", e)\nprint(await _sandbar.rpc({"small": True}))',
      { boot: { maxFrameBytes: 2000 }, onFrame: echoRpc },
    );
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('2000');
    expect(lines[1]).toMatch(/^ERR RPC request is \d+ bytes encoded, over the 2000-byte frame limit$/);
    expect(lines[2]).toBe("{'echo': {'small': True}}");
    // The refused request was never sent, and ids stay consecutive.
    expect(r.frames.filter((f) => f.type === 'rpc_request').map((f) => f.id)).toEqual([1]);
  });

  it('exits promptly when stdin reaches EOF during a run', async () => {
    const agent = new Agent();
    await agent.waitFor((f) => f.type === 'ready');
    agent.send({ type: 'start', code: 'import time\nprint("sleeping", flush=True)\ntime.sleep(30)', context: {} });
    await agent.waitFor((f) => f.type === 'stdout' && f.data === 'sleeping\n');
    const closedAt = Date.now();
    agent.closeStdin();
    const exited = await agent.exited;
    expect(Date.now() - closedAt).toBeLessThan(2000);
    expect(exited.code).toBe(1);
    expect(agent.frames.some((f) => f.type === 'exit')).toBe(false);
  });

  it('fails a pending rpc when the host goes away, without hanging', async () => {
    const agent = new Agent();
    await agent.waitFor((f) => f.type === 'ready');
    agent.send({ type: 'start', code: 'import _sandbar\nawait _sandbar.rpc({"wait": True})', context: {} });
    await agent.waitFor((f) => f.type === 'rpc_request');
    const closedAt = Date.now();
    agent.closeStdin();
    expect((await agent.exited).code).toBe(1);
    expect(Date.now() - closedAt).toBeLessThan(2000);
  });
});

// The boot modules for figures, displays, out/ files and warm imports, on the host's Python (stdlib only:
// Matplotlib and PIL are exercised in the container tests).
describe.concurrent('artifacts and imports', SUITE, () => {
  const withOutDir = async (fn: (outDir: string) => Promise<void>) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbar-agent-out-'));
    try {
      await fn(path.join(dir, 'out'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const files = (r: RunResult) => r.frames.filter((f) => f.type === 'file');

  it('sends out/ files sorted, in 1 MiB chunks, with safe unique names, skipping symlinks, within the caps', () =>
    withOutDir(async (outDir) => {
      const r = await run(
        `import os
os.makedirs('${outDir}/sub', exist_ok=True)
open('${outDir}/big.bin', 'wb').write(b'x' * (2 * 1024 * 1024 + 5))
open('${outDir}/my report (1).csv', 'w').write('a')
open('${outDir}/my report [1].csv', 'w').write('b')
open('${outDir}/sub/z.txt', 'w').write('z')
os.symlink('/etc/hostname', '${outDir}/link')
`,
        { boot: { modules: agentBootModules(), outDir }, start: { artifacts: { imageCapBytes: 350000, maxFiles: 3, maxBytes: 10 << 20 } } },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(files(r).map((f) => [f.name, f.offset ?? null, f.last ?? null, f.omitted ?? null])).toEqual([
        ['out/big.bin', 0, false, null],
        ['out/big.bin', 1024 * 1024, false, null],
        ['out/big.bin', 2 * 1024 * 1024, true, null],
        ['out/my_report__1_.csv', 0, true, null],
        ['out/my_report__1_-2.csv', 0, true, null],
        ['out/sub/z.txt', null, null, 'files'],
      ]);
      expect(Buffer.from(String(files(r)[4]!.data), 'base64').toString()).toBe('b');
      // Every file frame comes before the exit frame.
      expect(r.frames.at(-1)!.type).toBe('exit');
    }));

  it('display() sends PNG bytes with the header size, SVG as its own type, and refuses bytes that are no image', async () => {
    const png = "b'\\x89PNG\\r\\n\\x1a\\n' + bytes([0, 0, 0, 13]) + b'IHDR' + (300).to_bytes(4, 'big') + (200).to_bytes(4, 'big') + bytes(17)";
    const r = await run(
      `display(${png})
class D:
    def _repr_svg_(self):
        return '<svg/>'
display(D())
try:
    display(b'hello')
except ValueError as e:
    print(e)
`,
      { boot: { modules: agentBootModules() } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.frames.filter((f) => f.type === 'display').map((f) => [f.mime, f.source, f.width, f.height, f.size])).toEqual([
      ['image/png', 'display', 300, 200, 41],
      ['image/svg+xml', 'display', 0, 0, 6],
    ]);
    expect(r.stdout).toBe('display(): these bytes are not a PNG or JPEG image\n');
  });

  it('reports which watched modules the code imported, by any import form, only when asked', async () => {
    const code = 'import json\nfrom email import message\nimport os.path';
    const watched = await run(code, { boot: { modules: agentBootModules() }, start: { watchImports: ['json', 'email.message', 'csv', 'os'] } });
    expect(watched.frames.filter((f) => f.type === 'imports')).toEqual([{ type: 'imports', modules: ['email.message', 'json', 'os'] }]);
    const unwatched = await run(code, { boot: { modules: agentBootModules() } });
    expect(unwatched.frames.some((f) => f.type === 'imports')).toBe(false);
  });

  it('imports the preloads before ready and says which failed; an optional list skips what is missing quietly', async () => {
    const agent = new Agent({ modules: agentBootModules(), preload: { modules: ['json', 'no_such_mod_x'], optional: false } });
    const preload = await agent.waitFor((f) => f.type === 'preload');
    expect(preload.loaded).toEqual(['json']);
    expect(preload.failed).toEqual([{ module: 'no_such_mod_x', error: "ModuleNotFoundError: No module named 'no_such_mod_x'" }]);
    await agent.waitFor((f) => f.type === 'ready');
    agent.closeStdin();
    await agent.exited;
    const quiet = new Agent({ modules: agentBootModules(), preload: { modules: ['json', 'no_such_mod_x'], optional: true } });
    expect((await quiet.waitFor((f) => f.type === 'preload')).failed).toEqual([]);
    quiet.closeStdin();
    await quiet.exited;
  });
});
