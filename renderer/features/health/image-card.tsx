// Health's image card: present or missing, and the pull with its progress.
import type { HealthReport } from '../../../shared/health.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { ProgressBar } from '../../components/progress-bar.js';
import { useHealthStore } from '../../stores/health-store.js';
import { pullImage } from './health-actions.js';

export function ImageCard({ report }: { report: HealthReport }) {
  const pull = useHealthStore((s) => s.pull);
  const image = report.image;
  // A pull of another image (one typed in Limits, say) is shown too: it is the one in progress.
  const active = pull;
  const pulling = active?.phase === 'pulling';
  return (
    <section className="card" aria-labelledby="image-title">
      <div className="card-head">
        <h2 id="image-title">Image</h2>
        <Badge tone={image.present ? 'ok' : 'fail'}>{image.present ? 'present' : 'missing'}</Badge>
      </div>
      <p className="mono break">{image.name}</p>
      {!image.present && !pulling && <p className="muted">Runs cannot start until the image is on this machine. Runs never pull it themselves.</p>}
      <div className="pull">
        <Button variant={image.present ? 'secondary' : 'primary'} busy={pulling} onClick={() => void pullImage(image.name)}>
          {pulling ? 'Pulling…' : image.present ? 'Pull again' : 'Pull image'}
        </Button>
        {active && (
          <div className="pull-progress">
            <ProgressBar
              value={active.phase === 'done' ? 1 : active.fraction}
              tone={active.phase === 'failed' ? 'fail' : active.phase === 'done' ? 'ok' : 'accent'}
              label={`Pulling ${active.image}`}
              valueText={active.fraction === null ? active.phase : `${Math.round(active.fraction * 100)} %`}
            />
            <p className="pull-line mono small" title={active.line} aria-live="polite">
              {active.phase === 'failed' ? `Failed: ${active.error ?? active.line}` : active.phase === 'done' ? `Pulled ${active.image}` : active.line || 'Starting…'}
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
