import { useMemo } from 'react';
import { diffStats, parseUnifiedDiff } from './diff-parse.js';

const lines = (n: number) => (n === 1 ? '1 line' : `${n} lines`);

const SIGN = { add: '+', del: '−', context: ' ', hunk: '', meta: '', note: '' } as const;

export function DiffView({ diff, label }: { diff: string; label: string }) {
  const parsed = useMemo(() => parseUnifiedDiff(diff), [diff]);
  const stats = diffStats(parsed);
  if (parsed.length === 0) return <p className="muted">No changes.</p>;
  return (
    <figure className="diff">
      <figcaption className="diff-caption">
        {label} <span className="diff-added">+{stats.added}</span> <span className="diff-removed">−{stats.removed}</span>
      </figcaption>
      <div className="diff-body" role="table" aria-label={`${label}: ${lines(stats.added)} added, ${lines(stats.removed)} removed`}>
        {parsed.map((line, i) => (
          <div key={i} className={`diff-line diff-${line.kind}`} role="row">
            <span className="diff-no" role="cell" aria-hidden="true">
              {line.oldNo ?? ''}
            </span>
            <span className="diff-no" role="cell" aria-hidden="true">
              {line.newNo ?? ''}
            </span>
            <span className="diff-text" role="cell">
              <span className="diff-sign" aria-label={line.kind === 'add' ? 'added' : line.kind === 'del' ? 'removed' : undefined}>
                {SIGN[line.kind]}
              </span>
              {line.text}
            </span>
          </div>
        ))}
      </div>
    </figure>
  );
}
