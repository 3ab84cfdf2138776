// Health's runtime facts and the capability matrix of the backend in use (each limit's state).
import type { HealthReport, LimitState } from '../../../shared/health.js';
import { ENFORCED_KEYS } from '../../../shared/health.js';
import { StatusDot } from '../../components/badge.js';
import type { Tone } from '../../components/tone.js';

/** A documented exception (gVisor's pids, say) is amber with its reason, never shown as a pass. */
export const STATE: Record<LimitState['state'], { tone: Tone; label: string }> = {
  enforced: { tone: 'ok', label: 'enforced' },
  exception: { tone: 'warn', label: 'not enforced on this backend' },
  failed: { tone: 'fail', label: 'not enforced' },
  unknown: { tone: 'fail', label: 'not proven' },
};

export const ENFORCED_LABEL: Record<(typeof ENFORCED_KEYS)[number], string> = {
  memory: 'Memory limit',
  pids: 'Process limit',
  network: 'No network',
  readOnlyRoot: 'Read-only root',
  capabilities: 'No capabilities',
  seccomp: 'Syscall filter',
};

export function RuntimeFacts({ report }: { report: HealthReport }) {
  const rt = report.runtime;
  const caps = report.capabilities;
  return (
    <section className="card" aria-labelledby="runtime-title">
      <h2 id="runtime-title">Container runtime</h2>
      {rt ? (
        <dl className="facts">
          <dt>Runtime</dt>
          <dd>
            {rt.name} {rt.version}
          </dd>
          <dt>Path</dt>
          <dd className="mono">{rt.path}</dd>
          <dt>Mode</dt>
          <dd>{rt.rootless ? 'rootless' : 'rootful'}</dd>
          <dt>cgroups</dt>
          <dd>{rt.cgroupVersion ? `v${rt.cgroupVersion}` : 'unknown'}</dd>
          <dt>OCI runtime</dt>
          <dd>
            {rt.ociRuntime}
            {rt.ociRuntimeNote && <span className="muted"> — {rt.ociRuntimeNote}</span>}
          </dd>
          <dt>Storage</dt>
          <dd>{rt.storageDriver}</dd>
          <dt>Syscall filter</dt>
          <dd>{report.seccomp === 'sandbar' ? "Sandbar's profile" : "the runtime's default (weaker)"}</dd>
        </dl>
      ) : (
        <p className="tone-fail">No container runtime found. Install Podman (recommended) or Docker.</p>
      )}
      <h3 className="subhead">
        Proven by the probe
        {caps && ` on ${caps.backend}${caps.isolation === 'runsc' ? ' with gVisor' : ''}`}
      </h3>
      {caps?.rootlessNote && <p className="muted">{caps.rootlessNote}</p>}
      <ul className="enforced" aria-label="Limits the probe proved">
        {ENFORCED_KEYS.map((k) => {
          const state = caps ? STATE[caps.limits[k].state] : report.enforced[k] ? STATE.enforced : STATE.unknown;
          const reason = caps?.limits[k].reason;
          return (
            <li key={k}>
              <StatusDot tone={state.tone} label={state.label} />
              {ENFORCED_LABEL[k]}
              {reason && <span className="muted"> — {reason}</span>}
            </li>
          );
        })}
      </ul>
      {caps && (
        <dl className="facts" aria-label="What the backend can do">
          <dt>Lifetime cap</dt>
          <dd>
            {caps.lifetimeBackstop
              ? 'in the runtime: a sandbox dies on time even if Sandbar is killed'
              : "none in the runtime: the agent's idle timeout and the reaper stand in"}
          </dd>
          <dt>Pause/resume</dt>
          <dd>{caps.pauseResume ? 'supported' : 'not supported by this backend'}</dd>
          <dt>Checkpoints</dt>
          <dd>{caps.checkpoints === true ? 'kept in the sandbox: a session can step back to a recent call (<id>@<n>)' : `none: ${caps.checkpoints}`}</dd>
        </dl>
      )}
    </section>
  );
}
