// Every runtime and isolation tier installed here, each probed with the same spec: the matrix Health
// shows for the backend in use, side by side for all of them (`sandbar doctor --all-runtimes`).
import { errorMessage } from '../../shared/errors.js';
import type { RuntimeTier } from '../../shared/health.js';
import type { ContainerSpec, Owner } from '../sandbox/backend.js';
import { ContainerRuntime } from '../sandbox/cli/container-runtime.js';
import { collectHealth } from './sandbox-checks.js';
import { locateRuntime, RUNTIME_ENV_VARS } from '../sandbox/cli/runtime-locator.js';
import type { Isolation } from '../sandbox/sandbox-spec.js';

export type TierResult = RuntimeTier;

export async function probeEveryTier(options: { env: NodeJS.ProcessEnv; platform: NodeJS.Platform; owner: Owner; spec: ContainerSpec }): Promise<TierResult[]> {
  const results: TierResult[] = [];
  for (const name of ['podman', 'docker'] as const) {
    const env: NodeJS.ProcessEnv = { ...options.env, [RUNTIME_ENV_VARS[0]]: name };
    for (const alias of RUNTIME_ENV_VARS.slice(1)) delete env[alias];
    try {
      if (!locateRuntime({ env, platform: options.platform })) continue;
    } catch {
      continue; // not installed
    }
    const runtime = new ContainerRuntime({ env, platform: options.platform });
    let available: string[];
    try {
      available = (await runtime.resolve()).availableOciRuntimes;
    } catch (err) {
      results.push({ runtime: name, isolation: 'runc', error: errorMessage(err) });
      continue;
    }
    // gVisor needs only Podman's per-run flags; Docker needs runsc registered in daemon.json first.
    const tiers: (string | undefined)[] = [undefined, ...(name === 'podman' && available.includes('runsc') ? ['runsc'] : [])];
    for (const ociRuntime of tiers) {
      const { ociRuntime: _chosen, ...base } = options.spec;
      const spec: ContainerSpec = ociRuntime ? { ...base, ociRuntime } : base;
      const isolation: Isolation = ociRuntime ? 'runsc' : 'runc';
      const report = await collectHealth(runtime, options.owner, spec, { probe: true });
      if (!report.image.present) results.push({ runtime: name, isolation, error: `the image ${spec.image} is not present in ${name}` });
      else results.push({ runtime: name, isolation, ...(report.capabilities ? { capabilities: report.capabilities } : {}) });
    }
  }
  return results;
}

/** Pure: one line per tier, one mark per limit. */
export function formatTiers(results: readonly TierResult[]): string {
  const mark = { enforced: '✓', exception: '!', failed: '✗', unknown: '?' } as const;
  return results
    .map((r) => {
      const label = `${r.runtime}${r.isolation === 'runsc' ? ' + gVisor' : ''}`;
      if (!r.capabilities) return `  ${label}: not probed (${r.error ?? 'unknown'})`;
      const cells = Object.entries(r.capabilities.limits).map(([key, limit]) => `${key} ${mark[limit.state]}`);
      return `  ${label}${r.capabilities.rootless ? '' : ' (not rootless)'}: ${cells.join(', ')}`;
    })
    .join('\n');
}
