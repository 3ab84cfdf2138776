// The enforcement probe's one result line.
import { describe, expect, it } from 'vitest';
import { parseProbeOutput } from '../../../electron/sandbox/probe.js';
import { ENFORCED_KEYS } from '../../../shared/health.js';

const full = {
  memory: { enforced: true, detail: 'allocation of 200 MiB was killed' },
  pids: { enforced: true, detail: 'fork stopped at 31 processes' },
  network: { enforced: true, detail: 'no interfaces but lo' },
  readOnlyRoot: { enforced: true, detail: 'writing /usr failed: EROFS' },
  capabilities: { enforced: true, detail: 'CapEff is 0' },
  seccomp: { enforced: true, detail: 'refused with EPERM: unshare(CLONE_NEWUSER)' },
};

describe('parseProbeOutput', () => {
  it('reads a good line among other output', () => {
    const stdout = `probing...\nSANDBAR_PROBE ${JSON.stringify(full)}\ndone\n`;
    expect(parseProbeOutput(stdout)).toEqual(full);
  });

  it('reads findings that are not enforced', () => {
    const out = parseProbeOutput(`SANDBAR_PROBE ${JSON.stringify({ ...full, memory: { enforced: false, detail: 'allocated 200 MiB freely' } })}`);
    expect(out?.memory).toEqual({ enforced: false, detail: 'allocated 200 MiB freely' });
    expect(out?.pids.enforced).toBe(true);
  });

  it('is null when the line is missing', () => {
    expect(parseProbeOutput('')).toBeNull();
    expect(parseProbeOutput('Traceback (most recent call last):\n  ...\nMemoryError\n')).toBeNull();
    // The marker must start the line.
    expect(parseProbeOutput(`echo SANDBAR_PROBE ${JSON.stringify(full)}`)).toBeNull();
  });

  it('is null when the JSON is garbage', () => {
    expect(parseProbeOutput('SANDBAR_PROBE {"memory": {"enforced": tru')).toBeNull();
    expect(parseProbeOutput('SANDBAR_PROBE not json')).toBeNull();
  });

  it('turns missing keys and malformed entries into enforced:false', () => {
    const out = parseProbeOutput(
      `SANDBAR_PROBE ${JSON.stringify({ memory: { enforced: true, detail: 'ok' }, pids: { enforced: 'yes' }, network: 7, readOnlyRoot: { detail: 5 } })}`,
    );
    expect(out).not.toBeNull();
    expect(Object.keys(out!).sort()).toEqual([...ENFORCED_KEYS].sort());
    expect(out!.memory).toEqual({ enforced: true, detail: 'ok' });
    expect(out!.pids).toEqual({ enforced: false, detail: 'not reported by the probe' });
    expect(out!.network.enforced).toBe(false);
    expect(out!.readOnlyRoot).toEqual({ enforced: false, detail: 'not reported by the probe' });
    expect(out!.capabilities).toEqual({ enforced: false, detail: 'not reported by the probe' });
  });

  it('gives all enforced:false for an empty object', () => {
    const out = parseProbeOutput('SANDBAR_PROBE {}');
    for (const key of ENFORCED_KEYS) expect(out?.[key].enforced).toBe(false);
  });

  it('gives all enforced:false for a JSON value that is not an object', () => {
    const out = parseProbeOutput('SANDBAR_PROBE [1,2]');
    for (const key of ENFORCED_KEYS) expect(out?.[key].enforced).toBe(false);
  });

  // BUG (probe.ts, parseProbeOutput): `SANDBAR_PROBE null` parses to null and the loop then reads
  // `null[key]`, throwing a TypeError instead of returning null/enforced:false. Remove `.fails` once fixed.
  it('does not throw on a JSON null payload', () => {
    expect(() => parseProbeOutput('SANDBAR_PROBE null')).not.toThrow();
  });
});
