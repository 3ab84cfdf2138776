// What a run asked for with `packages`: the requirements, whether the layer was reused, and every fetch
// Sandbar made for it (the index page or file, its outcome, and why when it failed).
import type { PackagesUsed } from '../../../shared/packages.js';
import { Badge } from '../../components/badge.js';

const tone = (status: string) => (status === 'ok' ? 'ok' : status === 'not_found' ? 'warn' : 'fail');

export function PackagesSection({ packages }: { packages: PackagesUsed }) {
  return (
    <>
      <h3>Packages</h3>
      <p className="hist-muted">
        {packages.requirements.join(', ')} —{' '}
        {packages.layer === null ? 'all already in the image' : packages.reused ? `layer ${packages.layer.slice(0, 12)} reused, nothing fetched` : `layer ${packages.layer.slice(0, 12)} built`}
      </p>
      {packages.fetches.length > 0 && (
        <ul className="hist-fetches" aria-label="Package fetches">
          {packages.fetches.map((f, i) => (
            <li key={i}>
              <Badge tone={tone(f.status)}>{f.status.replace('_', ' ')}</Badge> <code>{f.url}</code> {f.bytes > 0 && <span className="hist-muted">{f.bytes} bytes</span>}
              {f.detail && <div className="hist-muted">{f.detail}</div>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
