// Health's checks, one row each, with their fix hints.
import type { CheckStatus, HealthCheck } from '../../../shared/health.js';
import { StatusDot, type Tone } from '../../components/badge.js';

const TONE: Record<CheckStatus, Tone> = { ok: 'ok', warn: 'warn', fail: 'fail' };
const WORD: Record<CheckStatus, string> = { ok: 'passed', warn: 'warning', fail: 'failed' };
const ORDER: Record<CheckStatus, number> = { fail: 0, warn: 1, ok: 2 };

/** Every check as a row; failures first, each with its fix. */
export function ChecksList({ checks }: { checks: HealthCheck[] }) {
  const sorted = [...checks].sort((a, b) => ORDER[a.status] - ORDER[b.status]);
  return (
    <ul className="checks" aria-label="Health checks">
      {sorted.map((c) => (
        <li key={c.id} className={`check check-${c.status}`}>
          <StatusDot tone={TONE[c.status]} label={WORD[c.status]} />
          <div className="check-text">
            <div className="check-label">{c.label}</div>
            {c.detail && <div className="check-detail">{c.detail}</div>}
            {c.hint && c.status !== 'ok' && (
              <div className="check-hint">
                <strong>Fix: </strong>
                {c.hint}
              </div>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
