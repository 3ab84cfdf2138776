// The real agent on the host, continued: errors and exit codes, host calls (rpc), artifacts and imports.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentBootModules } from '../../../electron/sandbox/agent/bootstrap.js';
import { describe, expect, it } from 'vitest';
import { type Frame, SUITE, Agent, type RunResult, run, echoRpc, sha256 } from './agent-harness.js';

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
