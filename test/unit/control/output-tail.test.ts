// The bounded live tail of one run's output, and the per-connection batch waiting for the next flush.
import { describe, expect, it } from 'vitest';
import { OutputBatch, OutputTail, TAIL_LIMIT_CHARS } from '../../../electron/control/output-tail.js';

describe('OutputTail', () => {
  it('keeps stdout and stderr apart, in order, unclipped while small', () => {
    const tail = new OutputTail();
    tail.append('stdout', 'a');
    tail.append('stderr', 'E1');
    tail.append('stdout', 'b');
    tail.append('stderr', 'E2');
    expect(tail.stdout).toBe('ab');
    expect(tail.stderr).toBe('E1E2');
    expect(tail.clipped).toBe(false);
  });

  it('holds exactly TAIL_LIMIT_CHARS without clipping', () => {
    const tail = new OutputTail();
    tail.append('stdout', 'x'.repeat(TAIL_LIMIT_CHARS - 1));
    tail.append('stdout', 'y');
    expect(tail.stdout.length).toBe(TAIL_LIMIT_CHARS);
    expect(tail.clipped).toBe(false);
  });

  it('drops the beginning beyond the limit, keeps the newest characters and says it clipped', () => {
    const tail = new OutputTail();
    tail.append('stdout', 'HEAD');
    tail.append('stdout', 'm'.repeat(TAIL_LIMIT_CHARS - 2));
    // Two characters over: exactly the first two go.
    expect(tail.stdout.length).toBe(TAIL_LIMIT_CHARS);
    expect(tail.stdout.slice(0, 3)).toBe('ADm');
    expect(tail.clipped).toBe(true);
    tail.append('stdout', 'END');
    expect(tail.stdout.length).toBe(TAIL_LIMIT_CHARS);
    expect(tail.stdout.endsWith('mmEND')).toBe(true);
    expect(tail.stdout.startsWith('mm')).toBe(true);
    expect(tail.stderr).toBe('');
  });

  it('bounds a single huge append', () => {
    const tail = new OutputTail();
    tail.append('stderr', 'a'.repeat(TAIL_LIMIT_CHARS) + 'tail!');
    expect(tail.stderr.length).toBe(TAIL_LIMIT_CHARS);
    expect(tail.stderr.endsWith('tail!')).toBe(true);
    expect(tail.clipped).toBe(true);
  });

  it('stays clipped once it has clipped', () => {
    const tail = new OutputTail();
    tail.append('stdout', 'z'.repeat(TAIL_LIMIT_CHARS + 1));
    tail.append('stderr', 'short');
    expect(tail.clipped).toBe(true);
    expect(tail.stderr).toBe('short');
  });
});

describe('OutputBatch', () => {
  it('collects per execution in arrival order, streams apart, and drains once', () => {
    const batch = new OutputBatch();
    expect(batch.empty).toBe(true);
    batch.add('r2', 'stdout', '2a');
    batch.add('r1', 'stdout', '1a');
    batch.add('r2', 'stderr', '2e');
    batch.add('r2', 'stdout', '2b');
    expect(batch.empty).toBe(false);
    expect(batch.drain()).toEqual([
      { id: 'r2', stdout: '2a2b', stderr: '2e' },
      { id: 'r1', stdout: '1a', stderr: '' },
    ]);
    expect(batch.empty).toBe(true);
    expect(batch.drain()).toEqual([]);
  });
});

describe('OutputTail cost', () => {
  // A full tail must not cost a copy of all 256 KiB (plus the garbage) per small append: a run that
  // prints line by line sends thousands of output events through the main process.
  it('appends small chunks to a full tail cheaply', () => {
    const tail = new OutputTail();
    tail.append('stdout', 'x'.repeat(TAIL_LIMIT_CHARS));
    const line = 'y'.repeat(99) + '\n';
    for (let i = 0; i < 2000; i++) tail.append('stdout', line);
    expect(tail.stdout.length).toBe(TAIL_LIMIT_CHARS);
    expect(tail.stdout.endsWith(line.repeat(2000))).toBe(true);
    expect(tail.stdout.startsWith('x')).toBe(true);
    // 200 KB appended to a full 256 KiB tail: cut back at most once, not once per line.
    expect(tail.cuts).toBeLessThanOrEqual(1);
  });
});
