// Starts one probe container with the real flags (and deliberately small limits) and runs probe.py in
// it, to prove that each limit is enforced rather than merely accepted.
import { readFileSync } from 'node:fs';
import { assetPath } from '../asset-path.js';
import { ENFORCED_KEYS, type EnforcedKey } from '../../shared/health.js';
import { errorMessage } from '../../shared/errors.js';
import type { ContainerSpec, ProbeFinding, ProbeResult, SandboxBackend } from './backend.js';
import { runInContainer } from './run/execution.js';

export type { ProbeFinding, ProbeResult } from './backend.js';

export const PROBE_MEMORY_MB = 96;
export const PROBE_PIDS = 32;
const NOT_REPORTED = 'not reported by the probe';

const probeSource = () => readFileSync(assetPath('sandbox/agent/probe.py'), 'utf8');

/** Pure: reads the probe's one result line out of its stdout. */
export function parseProbeOutput(stdout: string): Record<EnforcedKey, ProbeFinding> | null {
  // The probe prints its results twice (before and after the memory check that may end it): the last wins.
  const line = stdout.split('\n').findLast((l) => l.startsWith('SANDBAR_PROBE '));
  if (!line) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.slice('SANDBAR_PROBE '.length));
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const findings = {} as Record<EnforcedKey, ProbeFinding>;
  for (const key of ENFORCED_KEYS) {
    const entry = (parsed as Record<string, { enforced?: unknown; detail?: unknown } | undefined>)[key];
    findings[key] = {
      enforced: entry?.enforced === true,
      detail: typeof entry?.detail === 'string' ? entry.detail : NOT_REPORTED,
    };
  }
  return findings;
}

/** The probe on any backend: one sandbox with the real flags and deliberately small limits. */
export async function probeWith(backend: Pick<SandboxBackend, 'create' | 'kill'>, spec: ContainerSpec): Promise<ProbeResult> {
  const probeSpec: ContainerSpec = { ...spec, limits: { ...spec.limits, memory: `${PROBE_MEMORY_MB}m`, pids: PROBE_PIDS } };
  let container;
  try {
    container = await backend.create(probeSpec, { idleTimeoutSec: 120, maxLifetimeSec: 180 });
  } catch (err) {
    return { ok: false, error: `The probe container did not start: ${errorMessage(err)}` };
  }
  const outcome = await runInContainer(container, {
    executionId: `probe-${container.name}`,
    code: `PROBE_MEMORY_MB = ${PROBE_MEMORY_MB}\nPROBE_PIDS = ${PROBE_PIDS}\n${probeSource()}`,
    context: {},
    timeoutSec: 90,
    outputCapBytes: 64 * 1024,
    memory: probeSpec.limits.memory,
    kill: (c) => backend.kill([c.name]),
  });
  const findings = parseProbeOutput(outcome.stdout);
  // The memory check runs last; if the sandbox as a whole was killed at the limit during it (gVisor: the
  // cgroup holds the sandbox kernel, not each process), the limit held.
  if (findings && outcome.exitReason === 'memory' && findings.memory.detail === NOT_REPORTED) {
    findings.memory = {
      enforced: true,
      detail: `a ${PROBE_MEMORY_MB * 3} MiB allocation under a ${PROBE_MEMORY_MB} MiB limit ended the whole sandbox (exit ${outcome.exitCode ?? 137}): the limit bounds the sandbox as a whole`,
    };
  }
  if (!findings) {
    const why = outcome.message ?? outcome.exitReason;
    return { ok: false, error: `The probe did not report (${why}): ${outcome.stderr.slice(-500).trim()}` };
  }
  return { ok: true, findings };
}
