// The output store (renderer/stores/output-store.ts): chunks batched per frame, none lost while subscribing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushOutput, readOutput, setFrameScheduler, useOutputStore } from '../../../../renderer/stores/output-store.js';
import { resetStores } from './reset.js';

let frames: (() => void)[] = [];

beforeEach(() => {
  resetStores();
  frames = [];
  setFrameScheduler((flush) => frames.push(flush));
});

afterEach(() => {
  setFrameScheduler(null);
});

const out = () => useOutputStore.getState();

describe('output store', () => {
  it('publishes many chunks in one frame: one version bump, one scheduled flush', () => {
    for (let i = 0; i < 100; i++) out().outputChunk({ id: 'a', stdout: `${i}\n`, stderr: '' });
    expect(frames).toHaveLength(1);
    expect(out().versions.a).toBeUndefined(); // nothing reaches React before the frame
    frames[0]!();
    expect(out().versions.a).toBe(1);
    expect(readOutput('a').segments[0]!.text.split('\n')).toHaveLength(101);
  });

  it('schedules again after a flush', () => {
    out().outputChunk({ id: 'a', stdout: 'x', stderr: '' });
    frames.shift()!();
    out().outputChunk({ id: 'a', stdout: 'y', stderr: 'z' });
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(out().versions.a).toBe(2);
    expect(readOutput('a').segments).toEqual([
      { stream: 'stdout', text: 'xy' },
      { stream: 'stderr', text: 'z' },
    ]);
  });

  it('holds chunks that arrive while subscribing and applies them after the buffer', () => {
    out().outputLoading('a');
    out().outputChunk({ id: 'a', stdout: 'after\n', stderr: '' });
    expect(readOutput('a').present).toBe(false);
    out().outputLoaded('a', { id: 'a', stdout: 'before\n', stderr: '', clipped: true });
    flushOutput();
    expect(readOutput('a')).toMatchObject({ present: true, clipped: true, segments: [{ stream: 'stdout', text: 'before\nafter\n' }] });
  });

  it('keeps what it has when the subscription finds nothing', () => {
    out().outputChunk({ id: 'a', stdout: 'kept', stderr: '' });
    out().outputLoaded('a', null);
    expect(readOutput('a').segments[0]!.text).toBe('kept');
  });

  it('reports nothing for an unknown execution', () => {
    expect(readOutput('nope')).toEqual({ segments: [], clipped: false, present: false, hiddenAbove: false });
  });
});
