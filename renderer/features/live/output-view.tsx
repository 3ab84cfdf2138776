// The streaming output of one execution: a fixed-height pane (no layout shift while it grows) that
// follows the end unless the reader scrolled up; stderr is coloured and marked.
import { useLayoutEffect, useRef } from 'react';
import { useOutput } from '../../stores/output-store.js';

export function OutputView({ id, label }: { id: string; label: string }) {
  const { segments, clipped, present, version } = useOutput(id);
  const pane = useRef<HTMLPreElement>(null);
  const follow = useRef(true);

  useLayoutEffect(() => {
    const el = pane.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [version]);

  const empty = segments.length === 0;
  return (
    <div className="output">
      <div className="output-head" aria-hidden="true">
        <span>Output</span>
        <span className="output-legend">
          stdout · <span className="output-stderr">stderr</span>
        </span>
      </div>
      <pre
        ref={pane}
        className="output-pane"
        tabIndex={0}
        aria-label={label}
        aria-busy={!present || undefined}
        onScroll={(e) => {
          const el = e.currentTarget;
          follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
      >
        {clipped && <span className="output-clipped">… earlier output dropped (the panel keeps the last part; History has all captured output){'\n'}</span>}
        {empty ? (
          <span className="output-empty">{present ? 'No output yet.' : 'Waiting for output…'}</span>
        ) : (
          segments.map((s, i) =>
            s.stream === 'stderr' ? (
              <span key={i} className="output-stderr" title="stderr">
                {s.text}
              </span>
            ) : (
              <span key={i}>{s.text}</span>
            ),
          )
        )}
      </pre>
    </div>
  );
}
