// Several processes on one database: a writer killed with SIGKILL mid-run leaves a row that the next start
// marks interrupted (while a live writer's run is left alone), a writer that exits right after a run still
// wrote it (the batched writes are flushed on exit), and two processes writing 500 runs each at the same
// time lose none.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, tempDir } from './helpers.js';

const CHILD = fileURLToPath(new URL('./fixtures/history-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let dir: ReturnType<typeof tempDir>;
let file: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = tempDir();
  file = path.join(dir.dir, 'history.db');
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  dir.cleanup();
});

function child(args: string[], stdin: 'ignore' | 'pipe' = 'ignore'): { proc: ChildProcess; line: Promise<string>; done: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> } {
  const proc = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', 'tsx', CHILD, ...args], { cwd: ROOT, stdio: [stdin, 'pipe', 'pipe'] });
  children.push(proc);
  let stdout = '';
  let stderr = '';
  let resolveLine!: (line: string) => void;
  const line = new Promise<string>((r) => (resolveLine = r));
  proc.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (stdout.includes('\n')) resolveLine(stdout.split('\n')[0]!);
  });
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((r) =>
    proc.on('exit', (code, signal) => r({ code, signal, stdout, stderr })),
  );
  void done.then(({ stdout: out }) => resolveLine(out.split('\n')[0] ?? ''));
  return { proc, line, done };
}

describe('two processes', () => {
  it('a run in flight in a SIGKILLed process becomes interrupted at the next start; a live process’s run does not', async () => {
    const killed = child(['hang', file]);
    const alive = child(['hang', file]);
    const killedId = (await killed.line).replace('ready ', '');
    const aliveId = (await alive.line).replace('ready ', '');
    expect(killedId).toMatch(/^[0-9a-f-]{36}$/);
    expect(aliveId).toMatch(/^[0-9a-f-]{36}$/);
    killed.proc.kill('SIGKILL');
    expect((await killed.done).signal).toBe('SIGKILL');

    const store = await openStore(file);
    expect(store.get(killedId)).toMatchObject({
      status: 'interrupted', error: 'Sandbar stopped before this run finished', code: 'import time\ntime.sleep(3600)',
      startedAt: expect.any(Number), finishedAt: null, exitReason: null, toolCallCount: 1,
    });
    expect(store.get(aliveId)).toMatchObject({ status: 'running' });
    expect(store.countByStatus()).toMatchObject({ interrupted: 1, running: 1 });
    store.dispose();

    alive.proc.kill('SIGKILL');
    await alive.done;
    const again = await openStore(file);
    expect(again.countByStatus()).toMatchObject({ interrupted: 2, running: 0 });
    again.dispose();
  });

  it('a process that exits, or dies of an uncaught exception, right after a run still has the run written whole', async () => {
    const exited = child(['exit', file]);
    const threw = child(['throw', file]);
    const [exitedEnd, threwEnd] = await Promise.all([exited.done, threw.done]);
    expect(exitedEnd.code).toBe(0);
    expect(threwEnd.code).toBe(1);
    expect(threwEnd.stderr).toMatch(/uncaught exception/);
    const ids = [exitedEnd, threwEnd].map((end) => end.stdout.split('\n')[0]!.replace('recorded ', ''));
    const store = await openStore(file);
    expect(store.get(ids[0]!)).toMatchObject({ status: 'success', stdout: 'exit\n', code: 'print("exit")' });
    expect(store.get(ids[1]!)).toMatchObject({ status: 'success', stdout: 'throw\n', code: 'print("throw")' });
    store.dispose();
  });

  it('each writing 500 runs at the same time: all 1,000 rows are there, complete', async () => {
    const a = child(['write', file, '500', 'alpha'], 'pipe');
    const b = child(['write', file, '500', 'beta'], 'pipe');
    expect(await Promise.all([a.line, b.line])).toEqual(['ready', 'ready']);
    a.proc.stdin!.end('go\n');
    b.proc.stdin!.end('go\n');
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.stderr).toBe('');
    expect(rb.stderr).toBe('');
    expect([ra.code, rb.code]).toEqual([0, 0]);
    const reports = [ra, rb].map((r) => JSON.parse(r.stdout.split('\n')[1]!) as { first: number; last: number; writeErrors: number });
    expect(reports.map((r) => r.writeErrors)).toEqual([0, 0]);
    // They really overlapped: each started before the other finished.
    expect(reports[0]!.first).toBeLessThan(reports[1]!.last);
    expect(reports[1]!.first).toBeLessThan(reports[0]!.last);

    const store = await openStore(file);
    expect(store.countByStatus()).toMatchObject({ success: 1000, queued: 0, running: 0 });
    for (const tag of ['alpha', 'beta']) {
      const seen = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = store.list({ server: tag, limit: 500, ...(cursor ? { cursor } : {}) });
        for (const item of page.items) seen.add(item.codePreview);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen.size).toBe(500);
    }
    expect(store.list({ search: 'beta-499' }).items).toHaveLength(1);
    store.dispose();
  }, 60_000);
});
