// Every runtime and isolation tier installed here, each probed with the same spec: the matrix Health
// shows for the backend in use, side by side for all of them (`sandbar doctor --all-runtimes`).
import type { RuntimeTier } from '../../shared/health.js';
import type { ContainerSpec, Owner } from '../sandbox/backend.js';
import { installedTiers } from '../sandbox/cli/installed-tiers.js';
import { collectHealth } from './sandbox-checks.js';

export type TierResult = RuntimeTier;

export async function probeEveryTier(options: { env: NodeJS.ProcessEnv; platform: NodeJS.Platform; owner: Owner; spec: ContainerSpec }): Promise<TierResult[]> {
  const results: TierResult[] = [];
  for (const tier of await installedTiers(options)) {
    const { runtime, isolation } = tier;
    if (!tier.backend) {
      results.push({ runtime, isolation, error: tier.error ?? 'the runtime did not answer' });
      continue;
    }
    const report = await collectHealth(tier.backend, tier.spec, { probe: true });
    if (!report.image.present) results.push({ runtime, isolation, error: `the image ${tier.spec.image} is not present in ${runtime}` });
    else results.push({ runtime, isolation, ...(report.capabilities ? { capabilities: report.capabilities } : {}) });
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
