// Health: can code run safely here, and if not, what to do about it. One live report: the probe's rows
// change when it runs again; the rows about the endpoint, pool, queue and servers as those change.
import { Button } from '../../components/button.js';
import { formatDateTime } from '../../lib/format.js';
import { useHealthStore } from '../../stores/health-store.js';
import { runProbe } from './health-actions.js';
import { ChecksList } from './checks-list.js';
import { EndpointCard } from './endpoint-card.js';
import { ImageCard } from './image-card.js';
import { PoolCard } from './pool-card.js';
import { RuntimeFacts } from './runtime-facts.js';
import { RuntimeTiersCard } from './runtime-tiers-card.js';
import './health.css';

export function HealthView() {
  const { report, loaded, probing, probeError } = useHealthStore();
  const failing = report?.checks.filter((c) => c.status === 'fail').length ?? 0;
  const warnings = report?.checks.filter((c) => c.status === 'warn').length ?? 0;
  return (
    <section className="view" aria-labelledby="health-title">
      <header className="view-head">
        <div>
          <h1 id="health-title" tabIndex={-1}>
            Health
          </h1>
          <p className="view-sub" data-testid="probe-time">
            {!report ? 'Runtime, image, enforced limits, endpoint.' : report.probedAt ? `Probe last ran ${formatDateTime(report.probedAt)}` : 'The probe has not run yet'}
          </p>
          {report && <p className="view-sub small">Endpoint, pool, queue and servers are live: their rows change as they do.</p>}
        </div>
        <div className="view-actions">
          <Button variant="primary" busy={probing} onClick={() => void runProbe()}>
            {probing ? 'Probing…' : 'Run probe again'}
          </Button>
        </div>
      </header>
      {probing && (
        <p className="banner banner-info" role="status">
          A probe container is trying to break every limit (memory, processes, network, writes to /). This takes a few seconds.
        </p>
      )}
      {probeError && <p className="banner banner-fail">{probeError}</p>}
      {!loaded ? (
        <p className="muted">Loading…</p>
      ) : !report ? (
        <p className="muted">No health report yet. Run the probe to check this machine.</p>
      ) : (
        <>
          <div className={`verdict verdict-${report.ok ? 'ok' : 'fail'}`} role="status">
            <strong>{report.ok ? 'Code can run safely.' : 'Not safe to run code yet.'}</strong>{' '}
            {failing > 0 && `${failing} check${failing > 1 ? 's' : ''} failed. `}
            {warnings > 0 && `${warnings} warning${warnings > 1 ? 's' : ''}.`}
          </div>
          <div className="health-grid">
            <section className="card health-checks" aria-labelledby="checks-title">
              <h2 id="checks-title">Checks</h2>
              <ChecksList checks={report.checks} />
            </section>
            <div className="health-side">
              <RuntimeFacts report={report} />
              <ImageCard report={report} />
            </div>
          </div>
        </>
      )}
      <div className="health-grid">
        <EndpointCard />
        <PoolCard />
      </div>
      <RuntimeTiersCard />
    </section>
  );
}
