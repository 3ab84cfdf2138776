// `ps` lines of Sandbar's containers, with labels in podman's and docker's formats.
import { describe, expect, it } from 'vitest';
import { parseOwnedLine } from '../../../../electron/sandbox/cli/container-runtime.js';

describe('parseOwnedLine', () => {
  it('reads podman’s map[k:v ...] label format', () => {
    const line = 'sandbar-1a2b3c\trunning\tmap[sandbar.host:laptop sandbar.instance:9f8e7d6c5b4a sandbar.pid:31337]';
    expect(parseOwnedLine(line)).toEqual({
      name: 'sandbar-1a2b3c',
      state: 'running',
      instanceId: '9f8e7d6c5b4a',
      pid: 31337,
      host: 'laptop',
    });
  });

  it('reads docker’s k=v,k2=v2 label format', () => {
    const line = 'sandbar-xyz\texited\tsandbar.instance=abc123,sandbar.pid=42,sandbar.host=build-box,sandbar.execution=exec-1';
    expect(parseOwnedLine(line)).toEqual({
      name: 'sandbar-xyz',
      state: 'exited',
      instanceId: 'abc123',
      pid: 42,
      host: 'build-box',
    });
  });

  it('ignores the image’s own labels around Sandbar’s', () => {
    const podman =
      'sandbar-p\tcreated\tmap[io.buildah.version:1.37.5 org.opencontainers.image.source:https://github.com/docker-library/python sandbar.host:h sandbar.instance:i sandbar.pid:7]';
    expect(parseOwnedLine(podman)).toMatchObject({ instanceId: 'i', pid: 7, host: 'h' });
    const docker =
      'sandbar-d\trunning\tmaintainer=someone,org.opencontainers.image.source=https://github.com/docker-library/python,sandbar.pid=8,sandbar.host=h2,sandbar.instance=i2';
    expect(parseOwnedLine(docker)).toMatchObject({ instanceId: 'i2', pid: 8, host: 'h2' });
  });

  it('gives a null pid when the label is missing, zero, negative or not a number', () => {
    expect(parseOwnedLine('n\trunning\tmap[sandbar.host:h sandbar.instance:i]').pid).toBeNull();
    expect(parseOwnedLine('n\trunning\tsandbar.host=h,sandbar.instance=i,sandbar.pid=0').pid).toBeNull();
    expect(parseOwnedLine('n\trunning\tsandbar.host=h,sandbar.instance=i,sandbar.pid=-5').pid).toBeNull();
    expect(parseOwnedLine('n\trunning\tsandbar.host=h,sandbar.instance=i,sandbar.pid=abc').pid).toBeNull();
    expect(parseOwnedLine('n\trunning\tsandbar.host=h,sandbar.instance=i,sandbar.pid=1.5').pid).toBeNull();
  });

  it('gives empty owner fields when labels are absent', () => {
    expect(parseOwnedLine('sandbar-q\texited\tmap[]')).toEqual({ name: 'sandbar-q', state: 'exited', instanceId: '', pid: null, host: '' });
    expect(parseOwnedLine('sandbar-q\texited\t')).toEqual({ name: 'sandbar-q', state: 'exited', instanceId: '', pid: null, host: '' });
    expect(parseOwnedLine('sandbar-q')).toEqual({ name: 'sandbar-q', state: '', instanceId: '', pid: null, host: '' });
  });

  it('trims names and states', () => {
    expect(parseOwnedLine(' sandbar-t \t running \tsandbar.instance=i')).toMatchObject({ name: 'sandbar-t', state: 'running', instanceId: 'i' });
  });
});
