// The enforcement probe must be able to say "not enforced": run it in a container that lacks the limits.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseProbeOutput, PROBE_MEMORY_MB, PROBE_PIDS } from '../../../electron/sandbox/probe.js';
import { runtimeBinary, sandbox } from '../helpers.js';

const probeCode = () =>
  `PROBE_MEMORY_MB = ${PROBE_MEMORY_MB}\nPROBE_PIDS = ${PROBE_PIDS}\n${readFileSync('electron/sandbox/agent/probe.py', 'utf8')}`;

describe.skipIf(!sandbox.available)('enforcement probe', () => {
  it('reports every limit as not enforced in a container started without them', () => {
    const stdout = execFileSync(
      runtimeBinary(),
      ['run', '--rm', '-i', '--network', 'none', '--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=4096:4096', '--user', '65534:65534', sandbox.image, 'python3', '-'],
      { input: probeCode(), encoding: 'utf8', timeout: 120_000 },
    );
    const findings = parseProbeOutput(stdout);
    expect(findings).not.toBeNull();
    expect(findings!.memory.enforced).toBe(false);
    expect(findings!.memory.detail).toMatch(/allocated \d+ MiB/);
    expect(findings!.pids.enforced).toBe(false);
    expect(findings!.readOnlyRoot.enforced).toBe(false);
    // Runtimes keep some capabilities unless told to drop them, and allow privilege escalation.
    expect(findings!.capabilities.enforced).toBe(false);
    // --network none was given, so that one holds.
    expect(findings!.network.enforced).toBe(true);
  });
});
