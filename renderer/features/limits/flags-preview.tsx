// The container command line the draft limits would produce (`settings.previewFlags`, debounced), with the
// lines that differ from the limits in force marked.
import { useEffect, useState } from 'react';
import { api, ApiCallError, describeError } from '../../api/index.js';
import type { Limits } from '../../../shared/limits.js';
import { groupArgv } from './limits-form.js';

const DEBOUNCE_MS = 300;

type Preview = { state: 'idle' | 'loading' } | { state: 'ready'; lines: string[] } | { state: 'failed'; error: string };

function usePreview(limits: Record<string, unknown> | null): Preview {
  const key = limits ? JSON.stringify(limits) : null;
  const [preview, setPreview] = useState<Preview>({ state: 'idle' });
  useEffect(() => {
    if (key === null) return;
    let stale = false;
    setPreview((p) => (p.state === 'ready' ? p : { state: 'loading' }));
    const timer = setTimeout(() => {
      api.call('settings.previewFlags', { limits: JSON.parse(key) as Record<string, unknown> }).then(
        ({ argv }) => !stale && setPreview({ state: 'ready', lines: groupArgv(argv) }),
        (err: unknown) => {
          if (stale) return;
          const fields = err instanceof ApiCallError && err.fields ? Object.values(err.fields).join('; ') : '';
          setPreview({ state: 'failed', error: fields || describeError(err) });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [key]);
  return preview;
}

export function FlagsPreview({ draftLimits, currentLimits }: { draftLimits: Record<string, unknown> | null; currentLimits: Limits }) {
  const draft = usePreview(draftLimits);
  const current = usePreview(currentLimits as unknown as Record<string, unknown>);
  const before = new Set(current.state === 'ready' ? current.lines : []);
  return (
    <section className="card flags" aria-labelledby="flags-title">
      <h2 id="flags-title">Container flags</h2>
      <p className="muted small">What each run starts with, from these limits. Changed lines are marked.</p>
      {draftLimits === null ? (
        <p className="muted">Fix the highlighted fields to see the flags.</p>
      ) : draft.state === 'failed' ? (
        <p className="tone-fail">{draft.error}</p>
      ) : draft.state === 'ready' ? (
        <pre className="flags-code" aria-live="polite" aria-busy={false}>
          {draft.lines.map((line, i) => {
            const changed = current.state === 'ready' && !before.has(line);
            return (
              <span key={i} className={changed ? 'flag-changed' : undefined}>
                {changed && <span className="sr-only">changed: </span>}
                {line}
                {i < draft.lines.length - 1 ? ' \\\n' : '\n'}
              </span>
            );
          })}
        </pre>
      ) : (
        <p className="muted">Working out the flags…</p>
      )}
    </section>
  );
}
