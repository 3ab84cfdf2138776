// Which leftover containers belong to dead Sandbar processes.
import { describe, expect, it } from 'vitest';
import { isProcessAlive, selectOrphans } from '../../../electron/sandbox/reaper.js';
import type { OwnedContainer, Owner } from '../../../electron/sandbox/backend.js';

const self: Owner = { instanceId: 'me', pid: 1000, host: 'laptop' };

function c(name: string, extra: Partial<OwnedContainer> = {}): OwnedContainer {
  return { name, instanceId: 'other', pid: 2000, host: 'laptop', state: 'running', ...extra };
}

describe('selectOrphans', () => {
  it('takes a container whose owner pid is dead on the same host', () => {
    const dead = c('dead', { pid: 2000 });
    expect(selectOrphans([dead], self, () => false)).toEqual([dead]);
  });

  it('keeps a container whose owner pid is alive', () => {
    expect(selectOrphans([c('live', { pid: 3000 })], self, () => true)).toEqual([]);
  });

  it('asks about the container’s owner pid', () => {
    const asked: number[] = [];
    selectOrphans([c('x', { pid: 4321 })], self, (pid) => {
      asked.push(pid);
      return true;
    });
    expect(asked).toEqual([4321]);
  });

  it('keeps its own instance’s containers even if the pid check says dead', () => {
    expect(selectOrphans([c('mine', { instanceId: 'me', pid: 1000 }), c('mine2', { instanceId: 'me', pid: null })], self, () => false)).toEqual([]);
  });

  it('keeps containers of another host', () => {
    expect(selectOrphans([c('remote', { host: 'other-box' }), c('remote2', { host: 'other-box', pid: null })], self, () => false)).toEqual([]);
  });

  it('takes a container with a missing pid label on the same host without asking', () => {
    const noPid = c('nopid', { pid: null });
    let asked = false;
    expect(
      selectOrphans([noPid], self, () => {
        asked = true;
        return true;
      }),
    ).toEqual([noPid]);
    expect(asked).toBe(false);
  });

  it('sorts a mixed list, keeping order', () => {
    const list = [c('a', { pid: 1 }), c('b', { pid: 2 }), c('c', { instanceId: 'me' }), c('d', { host: 'x', pid: 1 }), c('e', { pid: null })];
    const alive = (pid: number) => pid === 2;
    expect(selectOrphans(list, self, alive).map((o) => o.name)).toEqual(['a', 'e']);
  });
});

describe('isProcessAlive', () => {
  it('is true for this process', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
  });

  it('is false for a pid that cannot exist', () => {
    expect(isProcessAlive(2 ** 22 + 12345)).toBe(false);
  });
});
