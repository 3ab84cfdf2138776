// Every runtime and isolation tier installed here (Podman, Docker, gVisor), probed on request: each
// limit's state per runtime, with the reason for every documented exception, and whether sessions there keep
// checkpoints (gVisor does not, and says why).
import { useState } from 'react';
import { ENFORCED_KEYS, type RuntimeTier } from '../../../shared/health.js';
import { StatusDot } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { probeTiers } from './health-actions.js';
import { ENFORCED_LABEL, STATE } from './runtime-facts.js';

const tierLabel = (t: RuntimeTier) => `${t.runtime}${t.isolation === 'runsc' ? ' + gVisor' : ''}`;

export function RuntimeTiersCard() {
  const [tiers, setTiers] = useState<RuntimeTier[] | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const result = await probeTiers();
    if (result) setTiers(result);
    setBusy(false);
  };
  // One line per distinct reason, under the table: amber cells explain themselves in words, not only in a tooltip.
  const reasons = new Map<string, string[]>();
  for (const t of tiers ?? []) {
    for (const k of ENFORCED_KEYS) {
      const reason = t.capabilities?.limits[k].reason;
      if (reason) reasons.set(reason, [...(reasons.get(reason) ?? []), `${tierLabel(t)}, ${ENFORCED_LABEL[k]}`]);
    }
  }
  const noCheckpoints = new Map<string, string[]>();
  for (const t of tiers ?? []) {
    const support = t.capabilities?.checkpoints;
    if (typeof support === 'string') noCheckpoints.set(support, [...(noCheckpoints.get(support) ?? []), tierLabel(t)]);
  }
  return (
    <section className="card" aria-labelledby="tiers-title">
      <h2 id="tiers-title">Every runtime here</h2>
      <p className="muted">
        The same probe on each container runtime and isolation tier installed on this machine, whichever one runs code now. Each starts a probe
        container, so this takes a while.
      </p>
      <Button busy={busy} onClick={() => void run()}>
        {busy ? 'Probing every runtime…' : 'Probe every runtime'}
      </Button>
      {tiers && tiers.length === 0 && <p className="muted">No container runtime found.</p>}
      {tiers && tiers.length > 0 && (
        <table className="tiers" aria-label="Limits per runtime">
          <thead>
            <tr>
              <th scope="col">Runtime</th>
              {ENFORCED_KEYS.map((k) => (
                <th key={k} scope="col">
                  {ENFORCED_LABEL[k]}
                </th>
              ))}
              <th scope="col">Checkpoints</th>
            </tr>
          </thead>
          <tbody>
            {tiers.map((t) => (
              <tr key={tierLabel(t)}>
                <th scope="row">
                  {tierLabel(t)}
                  {t.capabilities && !t.capabilities.rootless && <span className="muted"> (not rootless)</span>}
                </th>
                {t.capabilities ? (
                  <>
                    {ENFORCED_KEYS.map((k) => {
                      const limit = t.capabilities!.limits[k];
                      return (
                        <td key={k}>
                          <StatusDot tone={STATE[limit.state].tone} label={`${tierLabel(t)}, ${ENFORCED_LABEL[k]}: ${STATE[limit.state].label}`} />
                        </td>
                      );
                    })}
                    <td className={t.capabilities.checkpoints === true ? undefined : 'muted'}>{t.capabilities.checkpoints === true ? 'kept' : 'none'}</td>
                  </>
                ) : (
                  <td colSpan={ENFORCED_KEYS.length + 1} className="muted">
                    not probed: {t.error ?? 'unknown'}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {reasons.size > 0 && (
        <ul className="muted" aria-label="Why some limits are not enforced">
          {[...reasons].map(([reason, where]) => (
            <li key={reason}>
              {where.join('; ')}: {reason}
            </li>
          ))}
        </ul>
      )}
      {noCheckpoints.size > 0 && (
        <ul className="muted" aria-label="Why some runtimes keep no checkpoints">
          {[...noCheckpoints].map(([reason, where]) => (
            <li key={reason}>
              {where.join('; ')}, checkpoints: {reason}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
