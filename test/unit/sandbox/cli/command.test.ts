// The attached process adapter (node's spawn): exit codes, signals, and a binary that never started.
import { describe, expect, it } from 'vitest';
import { spawnAttached } from '../../../../electron/sandbox/cli/command.js';

const collect = (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return () => Buffer.concat(chunks).toString('utf8');
};

describe('spawnAttached', () => {
  it('pipes stdin to stdout and reports the exit code', async () => {
    const proc = spawnAttached('/bin/sh', ['-c', 'read line; echo "got $line"; exit 3']);
    const out = collect(proc.stdout);
    proc.stdin.write('hello\n');
    expect(await proc.exited).toEqual({ exitCode: 3, signal: null });
    expect(out()).toBe('got hello\n');
  });

  it('reports a kill as a signal with no exit code', async () => {
    const proc = spawnAttached('/bin/sh', ['-c', 'exec sleep 30']);
    proc.kill();
    expect(await proc.exited).toEqual({ exitCode: null, signal: 'SIGKILL' });
  });

  it('reports a binary that does not exist as a spawn error, never a throw', async () => {
    const proc = spawnAttached('/nonexistent/podman', ['run']);
    const exit = await proc.exited;
    expect(exit.exitCode).toBeNull();
    expect(exit.spawnError).toMatch(/\/nonexistent\/podman.*ENOENT/);
    expect(() => proc.stdin.write('x\n')).not.toThrow();
  });
});
