// Podman's default rlimits can exceed what the host allows ("setrlimit RLIMIT_NOFILE: Operation not
// permitted"), so containers get explicit ulimits no higher than the host's hard limits.
import { readFileSync } from 'node:fs';

export interface HostHardLimits {
  nofile: number | null;
  nproc: number | null;
}

/** Parses /proc/self/limits; `unlimited` becomes null. */
export function parseProcLimits(text: string): HostHardLimits {
  const hard = (label: string): number | null => {
    const line = text.split('\n').find((l) => l.startsWith(label));
    if (!line) return null;
    const fields = line.slice(label.length).trim().split(/\s+/);
    const value = fields[1];
    return value === undefined || value === 'unlimited' ? null : Number(value);
  };
  return { nofile: hard('Max open files'), nproc: hard('Max processes') };
}

/** Null off Linux: there the runtime lives in a VM and the host's limits do not apply. */
export function readHostHardLimits(): HostHardLimits | null {
  try {
    return parseProcLimits(readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The per-container values: enough for numpy/pandas, never above the host's hard limit. nproc counts
 * every process of the sandbox uid on the host, so it is only a coarse backstop; `--pids-limit` is the
 * per-container control.
 */
export function containerUlimits(host: HostHardLimits | null): { nofile: number; nproc: number } | null {
  if (!host) return null;
  // A missing, zero or unreadable hard limit means "do not lower ours" rather than `--ulimit 0:0`.
  const cap = (wanted: number, hard: number | null) => (hard === null || !(hard > 0) ? wanted : Math.min(wanted, hard));
  return { nofile: cap(4096, host.nofile), nproc: cap(4096, host.nproc) };
}
