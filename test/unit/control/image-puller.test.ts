// Pulling the sandbox image with progress: the fraction read from the runtime's lines, the phases, one
// pull per image at a time, and dispose stopping pulls in flight.
import { describe, expect, it, vi } from 'vitest';
import { ImagePuller, pullFraction } from '../../../electron/control/image-puller.js';
import type { ImagePullProgress } from '../../../shared/contract.js';

describe('pullFraction', () => {
  it('reads podman progress lines with binary sizes', () => {
    expect(pullFraction('Copying blob 4f4fb700ef54 [==>---] 12.3MiB / 45.0MiB')).toBeCloseTo(12.3 / 45, 6);
    expect(pullFraction('Copying blob sha256:2d429b9e73a6cf90a5bb85105c8118b30a1b2deedeae3ea9587055ffcb80eb45 [=====] 1.0GiB / 2.0GiB')).toBeCloseTo(0.5, 6);
    expect(pullFraction('Copying blob 4f4fb700ef54 [======] 512.0KiB / 1.0MiB')).toBeCloseTo(0.5, 6);
  });

  it('reads podman’s small-layer counters in bytes (lower-case b)', () => {
    expect(pullFraction('Copying blob 4f4fb700ef54 [--------------------------------------] 0.0b / 32.0b')).toBe(0);
    expect(pullFraction('Copying blob 4f4fb700ef54 [======================================] 32.0b / 32.0b')).toBe(1);
  });

  it('has no fraction for lines without sizes', () => {
    expect(pullFraction('Copying blob sha256:2d429b9e73a6cf90a5bb85105c8118b30a1b2deedeae3ea9587055ffcb80eb45 done')).toBeNull();
    expect(pullFraction('Copying blob 4f4fb700ef54 done   |')).toBeNull();
    expect(pullFraction('Copying config sha256:f1d2e3 done')).toBeNull();
    expect(pullFraction('Writing manifest to image destination')).toBeNull();
    expect(pullFraction('Trying to pull docker.io/library/python:3.14-slim...')).toBeNull();
    expect(pullFraction('')).toBeNull();
  });

  it('reads docker progress lines with decimal sizes', () => {
    expect(pullFraction('a2abf6c4d29d: Downloading [=====>                                             ]  3.146MB/29.15MB')).toBeCloseTo(3.146 / 29.15, 6);
    expect(pullFraction('a2abf6c4d29d: Extracting [==================================================>]  29.15MB/29.15MB')).toBe(1);
    expect(pullFraction('4f4fb700ef54: Downloading [==================================================>]      32B/32B')).toBe(1);
    expect(pullFraction('c1b4b5e2d3a4: Downloading [>                                                  ]  540.7kB/49.56MB')).toBeCloseTo(540_700 / 49_560_000, 6);
  });

  it('has no fraction for docker status lines', () => {
    expect(pullFraction('a2abf6c4d29d: Pull complete')).toBeNull();
    expect(pullFraction('a2abf6c4d29d: Verifying Checksum')).toBeNull();
    expect(pullFraction('Digest: sha256:0b5e2ad6c2f1aa5ba4bbd8a4e4a1e4b5d6c7d8e9f0a1b2c3d4e5f60718293a4b')).toBeNull();
    expect(pullFraction('Status: Downloaded newer image for python:3.14-slim')).toBeNull();
  });

  it('never goes above 1 and refuses a zero total', () => {
    expect(pullFraction('Copying blob x [===] 50MiB / 45MiB')).toBe(1);
    expect(pullFraction('Copying blob x [===] 0B / 0B')).toBeNull();
  });
});

function setup(pull: (image: string, onLine: (line: string) => void, signal: AbortSignal) => Promise<void>) {
  const progress: ImagePullProgress[] = [];
  const onPulled = vi.fn<(image: string) => void>();
  const pullFn = vi.fn(pull);
  const puller = new ImagePuller({ pull: pullFn, onProgress: (p) => progress.push(p), onPulled });
  return { puller, progress, onPulled, pull: pullFn };
}

describe('ImagePuller', () => {
  it('reports pulling with the runtime lines, then done with fraction 1, and calls onPulled', async () => {
    const { puller, progress, onPulled, pull } = setup(async (_image, onLine) => {
      onLine('Trying to pull docker.io/library/python:3.14-slim...');
      onLine('Copying blob 4f4fb700ef54 [==>---] 12.3MiB / 45.0MiB');
      onLine('Writing manifest to image destination');
    });
    expect(puller.start('python:3.14-slim')).toEqual({ started: true });
    await puller.settled();

    expect(pull).toHaveBeenCalledTimes(1);
    expect(pull.mock.calls[0]![0]).toBe('python:3.14-slim');
    expect(progress.every((p) => p.image === 'python:3.14-slim')).toBe(true);
    expect(progress.map((p) => p.phase)).toEqual(['pulling', 'pulling', 'pulling', 'pulling', 'done']);
    expect(progress[0]).toMatchObject({ phase: 'pulling', fraction: null, error: null });
    expect(progress[0]!.line).toContain('python:3.14-slim');
    expect(progress[1]).toEqual({ image: 'python:3.14-slim', phase: 'pulling', line: 'Trying to pull docker.io/library/python:3.14-slim...', fraction: null, error: null });
    expect(progress[2]!.line).toBe('Copying blob 4f4fb700ef54 [==>---] 12.3MiB / 45.0MiB');
    expect(progress[2]!.fraction).toBeCloseTo(12.3 / 45, 6);
    expect(progress[3]!.fraction).toBeNull();
    expect(progress[4]).toMatchObject({ phase: 'done', fraction: 1, error: null });
    expect(onPulled).toHaveBeenCalledTimes(1);
    expect(onPulled).toHaveBeenCalledWith('python:3.14-slim');
  });

  it('reports a failed pull with the error and does not call onPulled', async () => {
    const { puller, progress, onPulled } = setup(async (image) => {
      throw new Error(`manifest unknown: ${image}`);
    });
    puller.start('python:nope');
    await puller.settled();
    expect(progress.at(-1)).toEqual({ image: 'python:nope', phase: 'failed', line: '', fraction: null, error: 'manifest unknown: python:nope' });
    expect(progress.map((p) => p.phase)).toEqual(['pulling', 'failed']);
    expect(onPulled).not.toHaveBeenCalled();
  });

  it('refuses a second pull of the same image while one runs, allows another image, and allows it again after', async () => {
    const releases: (() => void)[] = [];
    const { puller, pull } = setup(() => new Promise<void>((resolve) => releases.push(resolve)));
    expect(puller.start('a:1')).toEqual({ started: true });
    expect(puller.start('a:1')).toEqual({ started: false });
    expect(puller.start('b:1')).toEqual({ started: true });
    expect(pull).toHaveBeenCalledTimes(2);

    for (const release of releases) release();
    await puller.settled();
    expect(puller.start('a:1')).toEqual({ started: true });
    expect(pull).toHaveBeenCalledTimes(3);
    releases.at(-1)!();
    await puller.settled();
  });

  it('allows a new pull after a failed one', async () => {
    let fail = true;
    const { puller, progress } = setup(async () => {
      if (fail) throw new Error('network down');
    });
    puller.start('a:1');
    await puller.settled();
    fail = false;
    expect(puller.start('a:1')).toEqual({ started: true });
    await puller.settled();
    expect(progress.at(-1)?.phase).toBe('done');
  });

  it('dispose aborts the signal handed to pull and waits for the pull to end', async () => {
    let seen: AbortSignal | undefined;
    const { puller, progress, onPulled } = setup(
      (_image, _onLine, signal) =>
        new Promise<void>((_resolve, reject) => {
          seen = signal;
          signal.addEventListener('abort', () => reject(new Error('pull aborted')), { once: true });
        }),
    );
    puller.start('a:1');
    expect(seen?.aborted).toBe(false);
    await puller.dispose();
    expect(seen?.aborted).toBe(true);
    expect(progress.at(-1)).toMatchObject({ phase: 'failed', error: 'pull aborted' });
    expect(onPulled).not.toHaveBeenCalled();
  });
});
