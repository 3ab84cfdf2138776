import type { HealthReport } from '../../../shared/health.js';
import { ENFORCED_KEYS } from '../../../shared/health.js';
import { StatusDot } from '../../components/badge.js';

const ENFORCED_LABEL: Record<(typeof ENFORCED_KEYS)[number], string> = {
  memory: 'Memory limit',
  pids: 'Process limit',
  network: 'No network',
  readOnlyRoot: 'Read-only root',
  capabilities: 'No capabilities',
  seccomp: 'Syscall filter',
};

export function RuntimeFacts({ report }: { report: HealthReport }) {
  const rt = report.runtime;
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
      <h3 className="subhead">Proven by the probe</h3>
      <ul className="enforced" aria-label="Limits the probe proved">
        {ENFORCED_KEYS.map((k) => (
          <li key={k}>
            <StatusDot tone={report.enforced[k] ? 'ok' : 'fail'} label={report.enforced[k] ? 'enforced' : 'not proven'} />
            {ENFORCED_LABEL[k]}
          </li>
        ))}
      </ul>
    </section>
  );
}
