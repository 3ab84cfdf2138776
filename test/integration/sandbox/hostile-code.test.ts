// Hostile code against real containers: each case asserts containment, then that the next run works.
import { createServer, type Server } from 'node:net';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, hostname } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/sandbox/engine.js';
import type { ExecutionRequest, ExecutionResult } from '../../../shared/execution.js';
import { containersOf, sandbox, startEngine, underGvisor, waitFor } from '../helpers.js';

const SECRET = `sandbar-host-secret-${process.pid}-${Date.now()}`;

/** Forks sleeping children until 1000 exist or a limit stops it; prints how many it made. */
const FORK_FLOOD = `import os, time
children = []
while len(children) < 1000:
    pid = os.fork()
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    children.append(pid)
print('forked', len(children))`;

describe.skipIf(!sandbox.available)('hostile code is contained', () => {
  let engine: Engine;
  let listener: Server;
  let listenerPort = 0;
  let connectionsToHost = 0;
  let hostDir: string;

  beforeAll(async () => {
    process.env.SANDBAR_TEST_SECRET = SECRET;
    hostDir = mkdtempSync(path.join(tmpdir(), 'sandbar-hostile-'));
    writeFileSync(path.join(hostDir, 'secret.txt'), SECRET);
    listener = createServer((socket) => {
      connectionsToHost++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    listenerPort = (listener.address() as { port: number }).port;
    engine = await startEngine({ poolSize: 2 });
  });

  afterAll(async () => {
    delete process.env.SANDBAR_TEST_SECRET;
    await engine?.dispose();
    listener?.close();
    rmSync(hostDir, { recursive: true, force: true });
  });

  const run = (code: string, extra: Partial<ExecutionRequest> = {}): Promise<ExecutionResult> =>
    engine.submit({ code, timeoutSec: 20, ...extra }).result;

  /** After every attack the engine must still serve an ordinary run. */
  async function expectNextRunWorks(): Promise<void> {
    const next = await run('print(6 * 7)');
    expect(next.exitReason).toBe('success');
    expect(next.stdout).toBe('42\n');
  }

  const json = (r: ExecutionResult): Record<string, unknown> => {
    expect(r.exitReason, r.stderr).toBe('success');
    return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  };

  it('has no network: TCP, UDP, DNS, IPv6, and not the host loopback', async () => {
    const r = await run(`
import errno, json, os, socket
res = {}
def attempt(name, fn):
    try:
        fn()
        res[name] = 'connected'
    except socket.gaierror as e:
        res[name] = 'gaierror'
    except OSError as e:
        res[name] = errno.errorcode.get(e.errno, str(e.errno))
attempt('tcp', lambda: socket.create_connection(('192.0.2.1', 80), timeout=3))
attempt('udp', lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('192.0.2.1', 53)))
attempt('dns', lambda: socket.getaddrinfo('example.com', 80))
attempt('ipv6', lambda: socket.create_connection(('2001:db8::1', 80), timeout=3))
attempt('host_loopback', lambda: socket.create_connection(('127.0.0.1', ${listenerPort}), timeout=3))
print(json.dumps({'res': res, 'ifaces': sorted(os.listdir('/sys/class/net'))}))
`);
    const out = json(r) as { res: Record<string, string>; ifaces: string[] };
    expect(out.ifaces).toEqual(['lo']);
    // gVisor's own network stack answers EHOSTUNREACH where Linux says ENETUNREACH: still no route out.
    const unreachable = underGvisor ? ['ENETUNREACH', 'EHOSTUNREACH'] : ['ENETUNREACH'];
    expect(unreachable).toContain(out.res.tcp);
    expect(unreachable).toContain(out.res.udp);
    expect(out.res.dns).toBe('gaierror');
    expect([...unreachable, 'EADDRNOTAVAIL']).toContain(out.res.ipv6);
    // The container's own loopback has nothing listening: the host's port is not reachable.
    expect(out.res.host_loopback).toBe('ECONNREFUSED');
    expect(connectionsToHost).toBe(0);
    await expectNextRunWorks();
  });

  it('runs as uid 65534 with no capabilities and no new privileges', async () => {
    const r = await run(`
import json, os
import ctypes
status = dict(l.split(':', 1) for l in open('/proc/self/status') if ':' in l)
# gVisor's /proc/self/status has no NoNewPrivs line: the kernel's own answer (PR_GET_NO_NEW_PRIVS) counts.
status.setdefault('NoNewPrivs', str(ctypes.CDLL(None).prctl(39, 0, 0, 0, 0)))
try:
    os.setuid(0)
    setuid = 'succeeded'
except PermissionError:
    setuid = 'denied'
print(json.dumps({'uid': os.getuid(), 'gid': os.getgid(), 'CapEff': status['CapEff'].strip(),
    'CapBnd': status['CapBnd'].strip(), 'NoNewPrivs': status['NoNewPrivs'].strip(), 'setuid': setuid}))
`);
    expect(json(r)).toEqual({ uid: 65534, gid: 65534, CapEff: '0000000000000000', CapBnd: '0000000000000000', NoNewPrivs: '1', setuid: 'denied' });
    await expectNextRunWorks();
  });

  it('keeps the root filesystem read-only, /tmp and /workspace writable but not executable, and bounded', async () => {
    const r = await run(`
import errno, json, os, subprocess
res = {}
def write(name, path, size=3):
    try:
        with open(path, 'wb') as f:
            f.write(b'x' * size)
        res[name] = 'ok'
    except OSError as e:
        res[name] = errno.errorcode.get(e.errno, str(e.errno))
write('root', '/evil')
write('usr', '/usr/evil')
write('usr_bin_python', '/usr/bin/python3')
write('tmp', '/tmp/file')
write('workspace', '/workspace/file')
write('tmp_overflow', '/tmp/big', 80 * 1024 * 1024)
os.remove('/tmp/big')
with open('/tmp/run.sh', 'w') as f:
    f.write('#!/bin/sh\\necho executed\\n')
os.chmod('/tmp/run.sh', 0o755)
try:
    subprocess.run(['/tmp/run.sh'], capture_output=True)
    res['exec_tmp'] = 'executed'
except PermissionError:
    res['exec_tmp'] = 'EACCES'
print(json.dumps(res))
`);
    const res = json(r);
    expect(['EROFS', 'EACCES']).toContain(res.root);
    expect(['EROFS', 'EACCES']).toContain(res.usr);
    expect(['EROFS', 'EACCES', 'ETXTBSY']).toContain(res.usr_bin_python);
    expect(res.tmp).toBe('ok');
    expect(res.workspace).toBe('ok');
    expect(res.tmp_overflow).toBe('ENOSPC');
    expect(res.exec_tmp).toBe('EACCES');
    await expectNextRunWorks();
  });

  // gVisor's documented exception (capabilities.ts): no pids limit; the memory limit bounds a fork flood.
  it.skipIf(underGvisor)('stops process creation at the PID limit', async () => {
    const r = await run(`
try:
${FORK_FLOOD.replace(/^/gm, '    ')}
except OSError as e:
    print('refused after', len(children))
`);
    expect(r.exitReason).toBe('success');
    const m = /refused after (\d+)/.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    expect(Number(m![1])).toBeLessThan(128);
    await expectNextRunWorks();
  });

  it.runIf(underGvisor)('under gVisor, stops a flood of processes at the memory limit (pids are not enforced there)', async () => {
    const r = await run(FORK_FLOOD);
    expect(r.exitReason).toBe('memory');
    expect(r.stdout).not.toContain('forked 1000');
    expect(await waitFor(() => !containersOf(engine.owner.instanceId).includes(r.containerName!), 3000)).toBe(true);
    await expectNextRunWorks();
  });

  it('survives a real fork bomb: it ends at the timeout (or, under gVisor, the memory limit) and nothing is left', async () => {
    const started = Date.now();
    const r = await run('import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n', { timeoutSec: 3 });
    expect(underGvisor ? ['timeout', 'memory'] : ['timeout']).toContain(r.exitReason);
    expect(Date.now() - started).toBeLessThan(3000 + 2000 + 1000);
    expect(await waitFor(() => !containersOf(engine.owner.instanceId).includes(r.containerName!), 3000)).toBe(true);
    await expectNextRunWorks();
  });

  it('ends a 2 GiB allocation with reason memory', async () => {
    const before = Date.now() - 1000;
    const r = await run('b = bytearray(2 * 1024 ** 3)\nprint("allocated")');
    expect(r.exitReason).toBe('memory');
    expect(r.exitCode).toBe(137);
    expect(r.message).toBe('killed: memory limit 512m reached');
    expect(r.stdout).not.toContain('allocated');
    // conmon drops an `oom` file in the runtime's working directory on a memory kill: never the user's.
    const stray = path.join(process.cwd(), 'oom');
    expect(existsSync(stray) && statSync(stray).mtimeMs >= before, 'an oom file was left in the working directory').toBe(false);
    await expectNextRunWorks();
  });

  for (const [label, code] of [
    ['a busy loop', 'while True:\n    pass'],
    ['a sleep', 'import time\ntime.sleep(600)'],
    ['a process ignoring SIGTERM', 'import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(600)'],
  ] as const) {
    it(`ends ${label} as timeout within timeout + 2 s, leaving no container`, async () => {
      const handle = engine.submit({ code, timeoutSec: 2 });
      let startedAt = 0;
      const off = engine.subscribe((e) => {
        if (e.type === 'started' && e.id === handle.id) startedAt = e.at;
      });
      const r = await handle.result;
      const endedAt = Date.now();
      off();
      expect(r.exitReason).toBe('timeout');
      expect(r.message).toBe('Execution timed out after 2s');
      expect(endedAt - startedAt).toBeLessThan(2000 + 2000);
      expect(await waitFor(() => !containersOf(engine.owner.instanceId).includes(r.containerName!), 2000)).toBe(true);
      await expectNextRunWorks();
    });
  }

  it('caps 100 MB of output: the sandbox sends the first 1 MiB, stops the run past 16 MiB, and host memory stays bounded', async () => {
    const before = process.memoryUsage().rss;
    const r = await run('import sys\nchunk = "y" * 1023 + "\\n"\nfor _ in range(100 * 1024):\n    sys.stdout.write(chunk)\n');
    const grown = process.memoryUsage().rss - before;
    expect(r.exitReason).toBe('output_limit');
    expect(r.stdoutTruncated).toBe(true);
    const cap = r.limits.outputCapBytes;
    expect(Buffer.byteLength(r.stdout)).toBeGreaterThanOrEqual(cap);
    expect(Buffer.byteLength(r.stdout)).toBeLessThan(cap + 200);
    expect(r.stdout).toMatch(/\n\[sandbar: stdout cut at 1 MiB \(outputCapBytes\); the code printed at least 16(\.\d)? MiB \([\d,]+ bytes\)\]\n$/);
    expect(r.message).toBe('Output limit reached: stdout went on past 16 MiB (16 × the 1 MiB cap), so the run was stopped; its first 1 MiB is kept');
    expect(grown).toBeLessThan(64 * 1024 * 1024);
    await expectNextRunWorks();
  });

  it('caps one huge line without a newline, on stderr too', async () => {
    const r = await run('import sys\nsys.stderr.write("z" * 50_000_000)');
    expect(r.exitReason).toBe('output_limit');
    expect(r.stderrTruncated).toBe(true);
    expect(Buffer.byteLength(r.stderr)).toBeLessThan(r.limits.outputCapBytes + 200);
    await expectNextRunWorks();
  });

  it('treats forged frames on fd 1 as output, and captures subprocess output', async () => {
    let rpcCalls = 0;
    const r = await engine.submit(
      {
        code: `
import os, subprocess, sys
os.write(1, b'{"type":"exit","code":0}\\n{"type":"rpc_request","id":1,"payload":{"type":"list_servers"}}\\n')
subprocess.run(['echo', 'from-child'])
os.system('echo from-shell >&2')
sys.exit(5)
`,
      },
      { rpc: async () => { rpcCalls++; return {}; } },
    ).result;
    expect(r.exitReason).toBe('error');
    expect(r.exitCode).toBe(5);
    expect(r.stdout).toContain('{"type":"exit","code":0}');
    expect(r.stdout).toContain('"rpc_request"');
    expect(r.stdout).toContain('from-child\n');
    expect(r.stderr).toContain('from-shell\n');
    expect(rpcCalls).toBe(0);
    await expectNextRunWorks();
  });

  it('sees no host environment and no host files', async () => {
    const r = await run(`
import json, os
mounts = []
for line in open('/proc/self/mountinfo'):
    head, _, tail = line.partition(' - ')
    mounts.append({'root': head.split()[3], 'target': head.split()[4], 'source': tail.split()[1]})
found = []
for top in ('/', '/tmp', '/workspace', '/home', '/root', '/mnt', '/media'):
    try:
        for base, dirs, files in os.walk(top):
            if base.startswith(('/proc', '/sys', '/dev')):
                dirs[:] = []
                continue
            for f in files:
                p = os.path.join(base, f)
                try:
                    if ${JSON.stringify(SECRET)} in open(p, errors='ignore').read(200000):
                        found.append(p)
                except OSError:
                    pass
    except OSError:
        pass
print(json.dumps({'env': dict(os.environ), 'hostname': open('/etc/hostname').read().strip(), 'found': found, 'mounts': mounts}))
`, { timeoutSec: 60 });
    const out = json(r) as { env: Record<string, string>; hostname: string; found: string[]; mounts: { root: string; target: string; source: string }[] };
    expect(JSON.stringify(out.env)).not.toContain(SECRET);
    // MPLBACKEND is the agent's own (figures come back through Sandbar's Matplotlib backend), not the host's.
    expect(Object.keys(out.env).filter((k) => !['PATH', 'HOME', 'HOSTNAME', 'TERM', 'container', 'PYTHONUNBUFFERED', 'PYTHONIOENCODING', 'PYTHONDONTWRITEBYTECODE', 'LC_CTYPE', 'MPLBACKEND'].includes(k))).toEqual([]);
    expect(out.env.MPLBACKEND).toBe('module://_sandbar_mpl');
    expect(out.hostname).not.toBe(hostname());
    expect(out.found).toEqual([]);
    // Bind mounts from a host disk are only the runtime's own per-container files and its init binary.
    const fromHostDisk = out.mounts.filter((m) => m.source.startsWith('/dev/') && m.target !== '/');
    const runtimeOwned = /^(\/run\/containers\/|\/var\/lib\/containers\/|\/var\/lib\/docker\/|\/run\/user\/\d+\/containers\/|\/usr\/(bin|libexec\/podman)\/catatonit$|\/usr\/bin\/docker-init$|\/usr\/sbin\/docker-init$|\/usr\/bin\/tini(-static)?$)/;
    // gVisor shows its own mount table (no host block devices at all); runc shows the runtime's bind mounts.
    if (!underGvisor) expect(fromHostDisk.length).toBeGreaterThan(0);
    expect(fromHostDisk.filter((m) => !runtimeOwned.test(m.root))).toEqual([]);
    await expectNextRunWorks();
  });

  it('keeps two concurrent runs apart: neither sees the other\'s /tmp, /workspace or processes', async () => {
    const a = engine.submit({
      code: `
import time
open('/tmp/run-a-secret', 'w').write('a')
open('/workspace/run-a-secret', 'w').write('a')
print('written', flush=True)
time.sleep(4)
`,
      timeoutSec: 20,
    });
    // Start B only once A has written its files.
    await new Promise<void>((resolve) => {
      const off = engine.subscribe((e) => {
        if (e.type === 'output' && e.id === a.id && e.data.includes('written')) {
          off();
          resolve();
        }
      });
    });
    const b = await run(`
import json, os
pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())
print(json.dumps({'tmp': os.listdir('/tmp'), 'workspace': os.listdir('/workspace'), 'pids': pids}))
`);
    const seen = json(b) as { tmp: string[]; workspace: string[]; pids: number[] };
    expect(seen.tmp).not.toContain('run-a-secret');
    expect(seen.workspace).not.toContain('run-a-secret');
    // Its own PID namespace: the init, the agent's relay and the agent, nothing of run A's.
    expect(seen.pids).toHaveLength(3);
    expect(seen.pids[0]).toBe(1);
    expect((await a.result).exitReason).toBe('success');
    await expectNextRunWorks();
  });
});
