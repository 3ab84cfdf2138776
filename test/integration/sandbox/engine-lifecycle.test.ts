// The engine's life around the runs: pool refill and single use, queue order, cancellation, live limit
// changes, and the clean-up of containers a killed Sandbar process left behind.
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/sandbox/engine.js';
import type { EngineEvent } from '../../../shared/execution.js';
import { containersOf, runtimeBinary, sandbox, startEngine, waitFor } from '../helpers.js';

describe.skipIf(!sandbox.available)('engine lifecycle', () => {
  const engines: Engine[] = [];
  const track = (e: Engine) => (engines.push(e), e);
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.dispose()));
  });

  it('serves runs from the warm pool, uses each container once, and refills', async () => {
    const engine = track(await startEngine({ poolSize: 2 }));
    expect(await waitFor(() => engine.snapshot().pool.ready === 2, 20_000)).toBe(true);
    const events: EngineEvent[] = [];
    engine.subscribe((e) => events.push(e));

    const first = await engine.submit({ code: 'open("/tmp/left-behind", "w").write("x")\nprint("one")' }).result;
    const second = await engine.submit({ code: 'import os\nprint(os.path.exists("/tmp/left-behind"))' }).result;
    expect(first.stdout).toBe('one\n');
    expect(second.stdout).toBe('False\n');
    expect(first.containerName).not.toBe(second.containerName);
    const started = events.filter((e): e is Extract<EngineEvent, { type: 'started' }> => e.type === 'started');
    expect(started.map((e) => e.warm)).toEqual([true, true]);

    expect(await waitFor(() => engine.snapshot().pool.ready === 2, 20_000)).toBe(true);
    const alive = containersOf(engine.owner.instanceId);
    expect(alive).toHaveLength(2);
    expect(alive).not.toContain(first.containerName);
    expect(alive).not.toContain(second.containerName);
  });

  it('runs queued work in FIFO order under the concurrency cap, and cancels queued and running runs', async () => {
    const engine = track(await startEngine({ poolSize: 1, concurrency: 1 }));
    const order: string[] = [];
    engine.subscribe((e) => {
      if (e.type === 'started') order.push(e.id);
    });
    const a = engine.submit({ code: 'import time\ntime.sleep(1)\nprint("a")' });
    const b = engine.submit({ code: 'print("b")' });
    const c = engine.submit({ code: 'print("c")' });
    const d = engine.submit({ code: 'print("d")' });
    expect(engine.snapshot().queued.map((q) => q.id)).toEqual([b.id, c.id, d.id]);
    expect(engine.cancel(c.id)).toBe(true);

    const cResult = await c.result;
    expect(cResult.exitReason).toBe('cancelled');
    expect(cResult.startedAt).toBeNull();
    const outputs = await Promise.all([a.result, b.result, d.result]);
    expect(outputs.map((r) => r.stdout)).toEqual(['a\n', 'b\n', 'd\n']);
    expect(order).toEqual([a.id, b.id, d.id]);

    // A running run: cancelled through an AbortSignal, and its container is gone.
    const controller = new AbortController();
    const long = engine.submit({ code: 'import time\nprint("going", flush=True)\ntime.sleep(60)' }, { signal: controller.signal });
    await new Promise<void>((resolve) => engine.subscribe((e) => e.type === 'output' && e.id === long.id && resolve()));
    controller.abort();
    const longResult = await long.result;
    expect(longResult.exitReason).toBe('cancelled');
    expect(longResult.stdout).toBe('going\n');
    expect(await waitFor(() => !containersOf(engine.owner.instanceId).includes(longResult.containerName!), 3000)).toBe(true);
  });

  it('drains and refills the pool when limits change, and the next run has the new limits', async () => {
    const engine = track(await startEngine({ poolSize: 2 }));
    expect(await waitFor(() => engine.snapshot().pool.ready === 2, 20_000)).toBe(true);
    const before = containersOf(engine.owner.instanceId);
    engine.updateConfig({ limits: { ...engine.currentConfig.limits, memory: '256m', pids: 64 } });
    expect(await waitFor(() => {
      const now = containersOf(engine.owner.instanceId);
      return now.length === 2 && now.every((n) => !before.includes(n));
    }, 20_000)).toBe(true);
    const r = await engine.submit({
      code: 'print(open("/sys/fs/cgroup/memory/memory.limit_in_bytes").read().strip() if __import__("os").path.exists("/sys/fs/cgroup/memory/memory.limit_in_bytes") else open("/sys/fs/cgroup/memory.max").read().strip())\nprint(open("/sys/fs/cgroup/pids/pids.max").read().strip() if __import__("os").path.exists("/sys/fs/cgroup/pids/pids.max") else open("/sys/fs/cgroup/pids.max").read().strip())',
    }).result;
    expect(r.stdout).toBe(`${256 * 1024 * 1024}\n64\n`);
    expect(r.limits.memory).toBe('256m');
  });

  it('removes the containers of a Sandbar process that was SIGKILLed mid-run, at the next start', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/integration/fixtures/engine-child.ts'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, SANDBAR_IMAGE: sandbox.image },
    });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`engine child exited early (${code})`)));
    });
    const { instanceId, containerName } = JSON.parse(line) as { instanceId: string; containerName: string };
    expect(containersOf(instanceId)).toContain(containerName);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const engine = track(await startEngine());
    expect(await waitFor(() => containersOf(instanceId).length === 0, 5000)).toBe(true);
    expect(containersOf(engine.owner.instanceId)).toEqual([]);
  });

  it('reaps a leftover whose owner died even when the container itself would keep running', async () => {
    // A process that has exited gives a PID that is certainly dead.
    const dead = spawn(process.execPath, ['-e', '0']);
    const deadPid = dead.pid!;
    await new Promise((r) => dead.once('exit', r));
    const name = `sandbar-leftover-${Date.now()}`;
    const hostName = (await import('node:os')).hostname();
    execFileSync(runtimeBinary(), [
      'run', '-d', '--name', name, '--label', 'sandbar.instance=deadbeef0000', '--label', `sandbar.pid=${deadPid}`, '--label', `sandbar.host=${hostName}`,
      '--network', 'none', '--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024', sandbox.image, 'sleep', '300',
    ]);
    // A live owner's container on the same host is left alone.
    const liveName = `sandbar-live-${Date.now()}`;
    execFileSync(runtimeBinary(), [
      'run', '-d', '--name', liveName, '--label', 'sandbar.instance=livelive0000', '--label', `sandbar.pid=${process.pid}`, '--label', `sandbar.host=${hostName}`,
      '--network', 'none', '--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024', sandbox.image, 'sleep', '300',
    ]);
    try {
      expect(containersOf('deadbeef0000')).toEqual([name]);
      track(await startEngine());
      expect(containersOf('deadbeef0000')).toEqual([]);
      expect(containersOf('livelive0000')).toEqual([liveName]);
    } finally {
      execFileSync(runtimeBinary(), ['rm', '-f', name, liveName], { stdio: 'ignore' });
    }
  });
});
