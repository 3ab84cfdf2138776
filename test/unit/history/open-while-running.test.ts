// A one-shot command's history opens after its container was spawned; nothing recorded is lost or reordered.
import { describe, expect, it } from 'vitest';
import { openWhileRunning } from '../../../electron/history/open-while-running.js';
import type { EngineEvent } from '../../../shared/execution.js';

function fakes() {
  const listeners: ((e: EngineEvent) => void)[] = [];
  const recorded: string[] = [];
  const log: string[] = [];
  let open = false;
  const history = {
    start: async () => {
      log.push('open');
      open = true;
    },
    record: (e: EngineEvent) => {
      if (!open) throw new Error('recorded before open');
      recorded.push(e.type);
    },
  };
  const emit = (e: EngineEvent) => listeners.forEach((l) => l(e));
  return { listeners, recorded, log, history, emit, subscribe: (l: (e: EngineEvent) => void) => listeners.push(l) };
}

const output = (data: string): EngineEvent => ({ type: 'output', id: 'r', stream: 'stdout', data });

describe('openWhileRunning', () => {
  it('opens only after the emitting turn ends, then records the waiting events in order', async () => {
    const f = fakes();
    const flushed = openWhileRunning(f.subscribe, f.history);
    f.emit({ type: 'pausedChanged', paused: false });
    f.emit(output('a'));
    f.log.push('spawned in the same turn');
    expect(f.log).toEqual(['spawned in the same turn']);
    await flushed();
    f.emit(output('b'));
    expect(f.log).toEqual(['spawned in the same turn', 'open']);
    expect(f.recorded).toEqual(['pausedChanged', 'output', 'output']);
  });

  it('resolves at once when nothing happened', async () => {
    const f = fakes();
    await openWhileRunning(f.subscribe, f.history)();
    expect(f.log).toEqual([]);
  });
});
