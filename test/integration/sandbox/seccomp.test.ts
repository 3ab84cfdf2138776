// Sandbar's seccomp profile and init, in real containers: the denied calls fail with EPERM, ordinary
// workloads still run, and PID 1 handles signals and orphans.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/sandbox/engine.js';
import { CliBackend } from '../../../electron/sandbox/cli/cli-backend.js';
import { collectHealth } from '../../../electron/health/sandbox-checks.js';
import type { ExecutionResult } from '../../../shared/execution.js';
import { containersOf, runtimeName, sandbox, startEngine, testRuntime, waitFor } from '../helpers.js';

// Each attempt runs in a forked single-threaded child (unshare refuses threaded callers) and reports errno.
const DENIED_CALLS = `
import ctypes, errno, json, os, platform, signal, time
libc = ctypes.CDLL(None, use_errno=True)
NR = {'x86_64': {'keyctl': 250, 'bpf': 321, 'userfaultfd': 323, 'perf_event_open': 298, 'io_uring_setup': 425},
      'aarch64': {'keyctl': 219, 'bpf': 280, 'userfaultfd': 282, 'perf_event_open': 241, 'io_uring_setup': 425}}[platform.machine()]
def in_child(fn):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(w, str(fn()).encode()); os._exit(0)
    os.close(w)
    value = int(os.read(r, 64) or b'-1')
    os.waitpid(pid, 0)
    return value
def err(result):
    return 0 if result != -1 else ctypes.get_errno()
out = {'unshare_user': in_child(lambda: err(libc.unshare(0x10000000)))}
for name, nr in NR.items():
    out[name] = err(libc.syscall(nr, 0, 0, 0, 0, 0))
# ptrace of a sibling: two children; the second tries to attach to the first.
target = os.fork()
if target == 0:
    time.sleep(30); os._exit(0)
out['ptrace_sibling'] = in_child(lambda: err(libc.ptrace(16, target, None, None)))
os.kill(target, signal.SIGKILL); os.waitpid(target, 0)
print(json.dumps({k: errno.errorcode.get(v, v) for k, v in out.items()}))
`;

const lastJson = (r: ExecutionResult) => {
  expect(r.exitReason, r.stderr).toBe('success');
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
};

describe.skipIf(!sandbox.available)('seccomp profile and init', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startEngine({ poolSize: 1 });
  });
  afterAll(async () => {
    await engine?.dispose();
  });
  const run = (code: string, timeoutSec = 60) => engine.submit({ code, timeoutSec }).result;

  it('denies namespaces, keyctl, bpf, userfaultfd, perf_event_open, io_uring and ptrace with EPERM', async () => {
    expect(lastJson(await run(DENIED_CALLS))).toEqual({
      unshare_user: 'EPERM',
      keyctl: 'EPERM',
      bpf: 'EPERM',
      userfaultfd: 'EPERM',
      perf_event_open: 'EPERM',
      io_uring_setup: 'EPERM',
      ptrace_sibling: 'EPERM',
    });
  });

  it('runs ordinary workloads under the profile', async () => {
    const r = await run(`
import asyncio, json, multiprocessing, os, subprocess, threading
import numpy as np, pandas as pd
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
out = {}
out['numpy'] = float(np.linalg.inv(np.array([[2.0, 0.0], [0.0, 4.0]]))[1][1])
out['pandas'] = int(pd.DataFrame({'a': [1, 2, 3]})['a'].sum())
plt.plot([1, 2, 3], [4, 1, 9])
plt.savefig('/tmp/figure.png')
out['figure_bytes'] = os.path.getsize('/tmp/figure.png') > 1000
results = []
threads = [threading.Thread(target=lambda i=i: results.append(i * i)) for i in range(4)]
[t.start() for t in threads]; [t.join() for t in threads]
out['threads'] = sorted(results)
async def main():
    await asyncio.sleep(0.01)
    return await asyncio.gather(*(asyncio.sleep(0, result=i) for i in range(3)))
out['asyncio'] = asyncio.run(main())
out['subprocess'] = subprocess.run(['python3', '-c', 'print(40 + 2)'], capture_output=True, text=True).stdout.strip()
def square(x):
    return x * x
with multiprocessing.Pool(2) as pool:
    out['pool'] = pool.map(square, [1, 2, 3])
import ssl
out['tls_context'] = ssl.create_default_context().verify_mode == ssl.CERT_REQUIRED
out['getrandom'] = len(os.getrandom(16))
print(json.dumps(out))
`);
    expect(lastJson(r)).toEqual({
      numpy: 0.25,
      pandas: 6,
      figure_bytes: true,
      threads: [0, 1, 4, 9],
      asyncio: [0, 1, 2],
      subprocess: '42',
      pool: [1, 4, 9],
      tls_context: true,
      getrandom: 16,
    });
  });

  it('ends a process that ignores SIGTERM at once on timeout, leaving no container', async () => {
    const started = Date.now();
    const r = await run('import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nprint("ready", flush=True)\ntime.sleep(600)', 2);
    expect(r.exitReason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000 + 2000 + 1500);
    expect(await waitFor(() => !containersOf(engine.owner.instanceId).includes(r.containerName!), 2000)).toBe(true);
  });

  it('ends cleanly with zombie and orphan children left behind', async () => {
    const r = await run(`
import os, time
zombie = os.fork()
if zombie == 0:
    os._exit(0)
middle = os.fork()
if middle == 0:
    if os.fork() == 0:
        time.sleep(300)
        os._exit(0)
    os._exit(0)
os.waitpid(middle, 0)
time.sleep(0.2)
state = open('/proc/%d/stat' % zombie).read().split(')')[1].split()[0]
print('zombie state', state)
`, 20);
    expect(r.exitReason).toBe('success');
    expect(r.stdout).toBe('zombie state Z\n');
    expect(r.durationMs).toBeLessThan(5000);
    expect(await waitFor(() => !containersOf(engine.owner.instanceId).includes(r.containerName!), 3000)).toBe(true);
  });

  it('is what makes the difference: with the runtime default profile calls Sandbar denies get through', async () => {
    const weaker = await startEngine({ poolSize: 0, seccomp: 'runtime-default' });
    try {
      const out = lastJson(await weaker.submit({ code: DENIED_CALLS, timeoutSec: 60 }).result);
      if (runtimeName() === 'docker') {
        // Docker's default profile already refuses user namespaces (CAP_SYS_ADMIN-gated) but lets
        // io_uring (EFAULT: the kernel took the call) and ptrace of a sibling through.
        expect(out.unshare_user).toBe('EPERM');
        expect(out.io_uring_setup).not.toBe('EPERM');
        expect(out.ptrace_sibling).toBe(0);
      } else {
        expect(out.unshare_user).toBe(0);
      }
      const report = await collectHealth(new CliBackend(testRuntime(), weaker.owner), weaker.spec(), { probe: true });
      const check = report.checks.find((c) => c.id === 'enforced.seccomp')!;
      expect(report.seccomp).toBe('runtime-default');
      expect(check.status).toBe('warn');
      expect(check.detail).toContain(runtimeName() === 'docker' ? 'io_uring_setup' : 'unshare(CLONE_NEWUSER)');
      expect(report.ok).toBe(true);
    } finally {
      await weaker.dispose();
    }
  });
});
