// Memory per container from the runtimes' stats output: human sizes and the two JSON shapes.
import { describe, expect, it } from 'vitest';
import { parseStats } from '../../../electron/sandbox/cli/container-stats.js';
import { parseHumanSize } from '../../../shared/human-size.js';

describe('parseHumanSize', () => {
  it('reads decimal units as powers of 1000', () => {
    expect(parseHumanSize('512B')).toBe(512);
    expect(parseHumanSize('1kB')).toBe(1000);
    expect(parseHumanSize('2.171MB')).toBe(2_171_000);
    expect(parseHumanSize('25.28GB')).toBe(25_280_000_000);
  });

  it('reads binary units as powers of 1024', () => {
    expect(parseHumanSize('1KiB')).toBe(1024);
    expect(parseHumanSize('3.4MiB')).toBe(Math.round(3.4 * 1024 ** 2));
    expect(parseHumanSize('512MiB')).toBe(512 * 1024 ** 2);
    expect(parseHumanSize('1.5GiB')).toBe(1.5 * 1024 ** 3);
  });

  it('takes a bare number as bytes and tolerates spaces and case', () => {
    expect(parseHumanSize('4096')).toBe(4096);
    expect(parseHumanSize(' 12.5 mib ')).toBe(Math.round(12.5 * 1024 ** 2));
    expect(parseHumanSize('32.0b')).toBe(32);
  });

  it('refuses what is not a size', () => {
    for (const bad of ['', '   ', 'MB', '--', 'abc', '12 parsecs', '1.2.3MB', '.MB', '-5MB', '5 MB extra', 'NaN']) {
      expect(parseHumanSize(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe('parseStats', () => {
  it('reads podman’s JSON array (the first figure of mem_usage)', () => {
    const podman = JSON.stringify([
      {
        id: 'd8b6',
        name: 'statstest',
        cpu_percent: '0.00%',
        mem_usage: '2.171MB / 25.28GB',
        mem_percent: '0.01%',
        net_io: '0B / 0B',
        block_io: '0B / 0B',
        pids: '1',
      },
      { id: 'a1b2', name: 'sandbar-r2', mem_usage: '45.6MB / 536.9MB' },
    ]);
    expect(parseStats(podman)).toEqual([
      { name: 'statstest', memoryBytes: 2_171_000 },
      { name: 'sandbar-r2', memoryBytes: 45_600_000 },
    ]);
  });

  it('reads docker’s one object per line', () => {
    const docker = [
      '{"BlockIO":"0B / 0B","CPUPerc":"0.00%","Container":"1f2e","ID":"1f2e","MemPerc":"0.66%","MemUsage":"3.4MiB / 512MiB","Name":"x","NetIO":"0B / 0B","PIDs":"1"}',
      '{"Name":"/sandbar-r3","MemUsage":"1.5GiB / 2GiB"}',
      '',
    ].join('\n');
    expect(parseStats(docker)).toEqual([
      { name: 'x', memoryBytes: Math.round(3.4 * 1024 ** 2) },
      { name: 'sandbar-r3', memoryBytes: 1.5 * 1024 ** 3 },
    ]);
  });

  it('reads a single docker line too', () => {
    expect(parseStats('{"Name":"x","MemUsage":"3.4MiB / 512MiB"}\n')).toEqual([{ name: 'x', memoryBytes: Math.round(3.4 * 1024 ** 2) }]);
  });

  it('answers nothing for empty output', () => {
    expect(parseStats('')).toEqual([]);
    expect(parseStats('  \n \n')).toEqual([]);
    expect(parseStats('[]')).toEqual([]);
  });

  it('skips garbage lines and entries without a name or a size', () => {
    const mixed = [
      'WARNING: some runtime warning',
      '{"Name":"good","MemUsage":"1MiB / 2MiB"}',
      '{not json',
      '{"Name":"stopped","MemUsage":"-- / --"}',
      '{"MemUsage":"1MiB / 2MiB"}',
      '42',
      'null',
      '{"Name":"also-good","MemUsage":"10kB / 1GB"}',
    ].join('\n');
    expect(parseStats(mixed)).toEqual([
      { name: 'good', memoryBytes: 1024 ** 2 },
      { name: 'also-good', memoryBytes: 10_000 },
    ]);
  });
});
